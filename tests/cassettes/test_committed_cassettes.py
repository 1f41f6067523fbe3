"""Every committed cassette: no secrets, marked for what it is, fresh against the templates."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from evals.cassettes import SYNTHETIC, cassettes_dir, check_cassettes, find_cassettes, find_secrets
from evals.cassettes.session import SYNTHETIC_KEY
from evals.loopback import SYNTHETIC_MODEL
from pipeline.prompting import default_library

CASSETTES = find_cassettes(cassettes_dir())


def ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(cassettes_dir())) for p in paths]


def test_there_are_committed_cassettes() -> None:
    assert len(CASSETTES) >= 20


@pytest.mark.parametrize("path", CASSETTES, ids=ids(CASSETTES))
def test_no_cassette_holds_a_key_an_auth_header_or_an_account_id(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert find_secrets(text) == []
    assert SYNTHETIC_KEY not in text  # even the loopback's stand-in key was filtered
    for interaction in yaml.safe_load(text)["interactions"]:
        request_headers = {k.lower() for k in interaction["request"]["headers"]}
        assert request_headers <= {"content-type", "anthropic-version", "x-converse-prompts"}
        response_headers = {k.lower() for k in interaction["response"]["headers"]}
        assert "request-id" not in response_headers
        assert "anthropic-organization-id" not in response_headers


SYNTHETIC_CASSETTES = [p for p in CASSETTES if SYNTHETIC in p.parts]


@pytest.mark.parametrize("path", SYNTHETIC_CASSETTES, ids=ids(SYNTHETIC_CASSETTES))
def test_synthetic_cassettes_say_they_are_synthetic(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["metadata"]["converse"]["synthetic"] is True
    # a test's cassette is named for it; a suite's (`converse record --synthetic`) for the suite
    assert path.name.startswith("test_synthetic_") or path.parent.name == "suites"
    for interaction in data["interactions"]:
        assert interaction["request"]["uri"].startswith("http://synthetic-loopback/")
        body = interaction["response"]["body"]
        if "json" in body and body["json"].get("type") == "message":
            assert body["json"]["model"] == SYNTHETIC_MODEL


def test_every_committed_cassette_matches_the_current_templates() -> None:
    statuses = check_cassettes(cassettes_dir(), default_library())
    assert [(s.path.name, s.stale, s.problems) for s in statuses if not s.ok] == []
