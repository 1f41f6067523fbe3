"""`converse search` (and the vectors it keeps) returns nothing of an erased fact."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

import pipeline.providers.local
from evals.cli import app
from pipeline.store import Store
from pipeline.store.embeddings import count_vectors
from tests.conftest import script
from tests.local.conftest import CountingEmbedder

runner = CliRunner()

provider = script(
    {
        "message": "I'm allergic to quinces",
        "intent": "remember_about_me",
        "params": {"personal_fact": "You're allergic to quinces"},
    },
    {"message": "yes", "after": "remember_about_me", "intent": "remember_about_me"},
    {
        "message": "I live in Reykjavik",
        "intent": "remember_about_me",
        "params": {"personal_fact": "You live in Reykjavik"},
    },
)


def _search(url: str, query: str) -> list[dict[str, Any]]:
    result = runner.invoke(app, ["search", query, "--person", "ana", "--db-url", url, "--json"])
    assert result.exit_code == 0, result.output
    found: list[dict[str, Any]] = json.loads(result.output)["results"]
    return found


def test_search_does_not_return_an_erased_fact(
    sqlite_url: str,
    sqlite_store: Store,
    make_person,
    say,
    fake_embedder: CountingEmbedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pipeline.providers.local, "MiniLMEmbedder", lambda: fake_embedder)
    make_person(sqlite_store)
    for message in ("I'm allergic to quinces", "yes", "I live in Reykjavik", "yes"):
        say(sqlite_store, provider, message)
    assert [r["content"] for r in _search(sqlite_url, "allergic to quinces")][:1] == [
        "You're allergic to quinces"
    ]
    with sqlite_store.read() as session:
        assert count_vectors(session) == 2

    erased = runner.invoke(
        app, ["memory", "erase", "1", "--person", "ana", "--db-url", sqlite_url, "-y"]
    )
    assert erased.output == "Erased 1 assertion(s) permanently.\n"

    contents = [r["content"] for r in _search(sqlite_url, "allergic to quinces")]
    assert not [c for c in contents if "quince" in c.casefold()]
    with sqlite_store.read() as session:
        assert count_vectors(session) == 1
