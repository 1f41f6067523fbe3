"""Cassettes: recording settings, provenance, stale-cassette messages, checks and secret scans."""

from evals.cassettes.check import CassetteStatus, check_cassettes, check_file, find_cassettes
from evals.cassettes.config import (
    MATCH_ON,
    REAL,
    SYNTHETIC,
    cassettes_dir,
    configure,
    scrub_request,
    scrub_response,
    synthetic_answers,
    vcr_config,
)
from evals.cassettes.provenance import META_KEY, file_prompts, stamp
from evals.cassettes.secrets import find_secrets
from evals.cassettes.stale import CassetteMisses, StaleCassette, explain, rerecord_test

__all__ = [
    "MATCH_ON",
    "META_KEY",
    "REAL",
    "SYNTHETIC",
    "CassetteMisses",
    "CassetteStatus",
    "StaleCassette",
    "cassettes_dir",
    "check_cassettes",
    "check_file",
    "configure",
    "explain",
    "file_prompts",
    "find_cassettes",
    "find_secrets",
    "rerecord_test",
    "scrub_request",
    "scrub_response",
    "stamp",
    "synthetic_answers",
    "vcr_config",
]
