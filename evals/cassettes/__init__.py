"""Cassettes: recording settings, provenance, stale-cassette messages, checks and secret scans.

Each name is imported from its module on first use, so a module below is imported without
the recording machinery (VCR.py, the anthropic SDK's settings)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

if TYPE_CHECKING:
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

_HOMES = {
    "CassetteStatus": ".check",
    "check_cassettes": ".check",
    "check_file": ".check",
    "find_cassettes": ".check",
    "MATCH_ON": ".config",
    "REAL": ".config",
    "SYNTHETIC": ".config",
    "cassettes_dir": ".config",
    "configure": ".config",
    "scrub_request": ".config",
    "scrub_response": ".config",
    "synthetic_answers": ".config",
    "vcr_config": ".config",
    "META_KEY": ".provenance",
    "file_prompts": ".provenance",
    "stamp": ".provenance",
    "find_secrets": ".secrets",
    "CassetteMisses": ".stale",
    "StaleCassette": ".stale",
    "explain": ".stale",
    "rerecord_test": ".stale",
}
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

__getattr__ = lazy_exports(__name__, _HOMES)
