"""memory.query (pipeline/memory/query.py): filters in SQL, allowlists enforced by the store
query, similarity from pipeline/memory/search.py, top_k, threshold, bullets|full and the
token budget; one person's memory never reaches another's query (docs/memory.md)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from datetime import timedelta

import numpy as np
import pytest
from pydantic import ValidationError
from sqlalchemy import update
from typer.testing import CliRunner

from evals.cli import app
from pipeline.clock import utcnow
from pipeline.domain import ActorKind, HistoryActor, NormativeForce
from pipeline.errors import InvalidMessage, NotAllowed
from pipeline.memory.embeddings import Vectors, normalized
from pipeline.memory.query import MemoryQuery, memory_query
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.people import create_person, create_project, get_person
from pipeline.store.tables import AssertionRow

runner = CliRunner()
DAY = timedelta(days=1)


class WordsEmbedder:
    """A deterministic bag-of-words embedder: texts sharing words are similar."""

    model_name = "fake-words-64"
    dim = 64

    def __init__(self, *_: object) -> None:
        pass

    def embed(self, texts: Sequence[str]) -> Vectors:
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                rows[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        return normalized(rows + 1e-6)


def _seed(store: Store) -> dict[str, int]:
    """ana: personal facts in several categories, a held offer, a retracted and a set-aside
    fact, a project note and procedural steps; bo: a fact of her own."""
    ids: dict[str, int] = {}
    with store.write() as session:
        ana = create_person(session, "ana")
        garden = create_project(session, ana, "Garden", "")
        bo = create_person(session, "bo")
        personal = ana.personal_engagement_id
        assert personal is not None and bo.personal_engagement_id is not None

        def add(key, engagement, content, category=None, force=NormativeForce.COMMITTED):
            a = repo.add_assertion(
                session, engagement, content, ActorKind.OPERATOR, force, category=category
            )
            ids[key] = a.id

        add("tea", personal, "Ana drinks green tea every morning", "preferences")
        add("hand", personal, "Ana is left-handed")
        add("marathon", personal, "Ana ran the city marathon in May", "events")
        add("offer", personal, "Ana drinks coffee", force=NormativeForce.HELD)
        add("gone", personal, "Ana drinks black tea", "preferences", NormativeForce.RETRACTED)
        add("aside", personal, "Ana drinks mint tea", "preferences")
        add("note", garden.id, "The tea bushes need acid soil")
        add("steps", garden.id, "1. Brew tea. 2. Cool it. 3. Water the ferns.", "procedural")
        add("bo", bo.personal_engagement_id, "Bo drinks oolong tea daily", "preferences")
        repo.set_pinned(session, ids["hand"], True, by=HistoryActor.CLI)
        repo.set_importance(session, ids["marathon"], 0.9, by=HistoryActor.CLI)
        session.execute(
            update(AssertionRow).where(AssertionRow.id == ids["aside"]).values(deleted_at=utcnow())
        )
    return ids


def _ask(store: Store, embedder=None, **fields) -> list[int]:
    with store.write() as session:
        result = memory_query(session, MemoryQuery(person="ana", **fields), embedder)
    return [i.id for i in result.items]


def test_filters_run_in_the_store_and_never_show_what_is_not_live(store) -> None:
    ids = _seed(store)
    everything = set(_ask(store, top_k=100))
    # committed personal facts and live project notes; never the held offer, the retracted or
    # the set-aside fact, the procedural steps (context none, not named) or bo's fact
    assert everything == {ids["tea"], ids["hand"], ids["marathon"], ids["note"]}
    assert _ask(store, pinned=True) == [ids["hand"]]
    assert ids["hand"] not in _ask(store, pinned=False, top_k=100)
    assert _ask(store, importance_min=0.8) == [ids["marathon"]]
    assert ids["marathon"] not in _ask(store, importance_max=0.6, top_k=100)
    assert set(_ask(store, categories=("preferences", "events"), top_k=100)) == {
        ids["tea"],
        ids["marathon"],
    }


def test_updated_after_and_before_bound_the_last_change(store) -> None:
    ids = _seed(store)
    old = utcnow() - 10 * DAY
    with store.write() as session:
        session.execute(
            update(AssertionRow).where(AssertionRow.id == ids["tea"]).values(updated_at=old)
        )
    cut = utcnow() - 5 * DAY
    assert _ask(store, updated_before=cut) == [ids["tea"]]
    assert ids["tea"] not in _ask(store, updated_after=cut, top_k=100)
    assert len(_ask(store, updated_after=cut, top_k=100)) == 3


def test_procedural_steps_come_only_when_named_by_an_allowed_reader(store) -> None:
    ids = _seed(store)
    assert _ask(store, agent="executor", categories=("procedural",)) == [ids["steps"]]
    with pytest.raises(NotAllowed) as caught:
        _ask(store, agent="companion", categories=("procedural",))
    assert caught.value.one_line() == (
        "reader 'companion' may not read memory category 'procedural' — 'companion' may read: "
        "profile, preferences, relationships, goals, events, knowledge, insight, relationship_dynamic"
    )


def test_a_request_outside_the_allowlist_is_refused_not_narrowed(store) -> None:
    _seed(store)
    with pytest.raises(NotAllowed, match="'stylist' may not read memory category 'profile'"):
        _ask(store, agent="stylist", categories=("preferences", "profile"))
    # without categories the stylist reads its own list only
    assert all(
        i.category == "preferences"
        for i in _result(store, agent="stylist", top_k=100, mode="full").items
    )


def _result(store: Store, embedder=None, person: str = "ana", **fields):
    with store.write() as session:
        return memory_query(session, MemoryQuery(person=person, **fields), embedder)


def test_a_text_query_ranks_by_similarity_and_drops_what_is_below_the_threshold(store) -> None:
    ids = _seed(store)
    embedder = WordsEmbedder()
    found = _result(store, embedder, query="green tea", top_k=10, mode="full")
    assert found.items[0].id == ids["tea"]
    assert all(i.similarity is not None and i.similarity >= 0.30 for i in found.items)
    assert ids["hand"] not in [i.id for i in found.items]  # nothing in common: below 0.30
    strict = _result(store, embedder, query="green tea", threshold=0.99, top_k=10)
    assert [i.id for i in strict.items] == []
    assert len(_result(store, embedder, query="tea", top_k=1).items) == 1


def test_bullets_and_full_and_the_token_budget(store) -> None:
    ids = _seed(store)
    bullets = _result(store, categories=("preferences",)).shown()
    assert bullets["items"] == [
        {
            "id": ids["tea"],
            "category": "preferences",
            "text": "[preferences] Ana drinks green tea every morning",
        }
    ]
    full = _result(store, categories=("preferences",), mode="full").shown()
    [item] = full["items"]
    assert item["where"] == "personal" and item["content"] == "Ana drinks green tea every morning"
    assert item["force"] == "committed" and item["importance"] == 0.5
    # 4 characters a token: a budget of 12 tokens (48 characters) fits one bullet of 48
    one = _result(store, top_k=100, budget_tokens=12)
    assert sum(len(i.text) + 1 for i in one.items) <= 48
    assert one.used_tokens <= 12
    assert one.omitted_for_budget == 4 - len(one.items)
    tiny = _result(store, top_k=100, budget_tokens=1)
    assert (tiny.items, tiny.omitted_for_budget) == ((), 4)


def test_one_persons_memory_never_reaches_anothers_query(store) -> None:
    ids = _seed(store)
    embedder = WordsEmbedder()
    for fields in ({}, {"query": "oolong tea daily"}, {"categories": ("preferences",)}):
        seen = _result(store, embedder, person="ana", top_k=100, mode="full", **fields)
        assert ids["bo"] not in [i.id for i in seen.items]
        assert all("Bo" not in i.content for i in seen.items)
    bo_sees = _result(store, embedder, person="bo", query="tea", top_k=100, mode="full")
    assert [i.id for i in bo_sees.items] == [ids["bo"]]


def test_what_is_returned_counts_as_used(store) -> None:
    ids = _seed(store)
    long_ago = utcnow() - 90 * DAY
    with store.write() as session:
        session.execute(update(AssertionRow).values(last_accessed_at=long_ago))
    _ask(store, pinned=True)
    with store.read() as session:
        assert repo.get_assertion(session, ids["hand"]).last_accessed_at > long_ago
        assert repo.get_assertion(session, ids["tea"]).last_accessed_at < long_ago + DAY


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"top_k": 0}, "top_k"),
        ({"importance_min": 0.9, "importance_max": 0.1}, "above importance_max"),
        ({"importance_min": 2}, "importance_min"),
        ({"mode": "prose"}, "mode"),
        ({"budget_tokens": 0}, "budget_tokens"),
        ({"categories": ()}, "at least one category"),
        ({"updated_after": "2026-02-01", "updated_before": "2026-01-01"}, "earlier"),
        ({"color": "red"}, "color"),
    ],
)
def test_bad_requests_are_refused_naming_the_field(fields, message) -> None:
    with pytest.raises(ValidationError, match=message):
        MemoryQuery(person="ana", **fields)


def test_a_text_query_without_an_embedder_says_what_to_do(store) -> None:
    _seed(store)
    with pytest.raises(InvalidMessage, match="needs an embedder"):
        _ask(store, query="tea")


def test_cli_query_prints_bullets_json_and_errors(db_url, monkeypatch) -> None:
    from pipeline.store import open_store

    opened = open_store(db_url)
    ids = _seed(opened)
    opened.dispose()
    monkeypatch.setattr("pipeline.providers.local.MiniLMEmbedder", WordsEmbedder)
    base = ["memory", "query", "--person", "ana", "--db-url", db_url]
    shown = runner.invoke(app, [*base, "--category", "preferences"])
    assert shown.exit_code == 0, shown.output
    assert shown.output == "- [preferences] Ana drinks green tea every morning\n"
    as_json = runner.invoke(app, [*base, "green tea", "--json", "--mode", "full", "--top-k", "2"])
    assert as_json.exit_code == 0, as_json.output
    data = json.loads(as_json.output)
    assert data["items"][0]["id"] == ids["tea"] and data["mode"] == "full"
    refused = runner.invoke(app, [*base, "--agent", "stylist", "--category", "profile"])
    assert refused.exit_code == 2
    assert refused.output.strip() == (
        "error: reader 'stylist' may not read memory category 'profile' — 'stylist' may read: "
        "preferences"
    )
    for bad, named in [
        (["--top-k", "0"], "top-k"),
        (["--updated-after", "last week"], "--updated-after 'last week' is not a date"),
        (["--pinned", "maybe"], "--pinned 'maybe' is not yes or no"),
        (["--importance-min", "0.9", "--importance-max", "0.1"], "above importance_max"),
    ]:
        result = runner.invoke(app, [*base, *bad])
        assert result.exit_code == 2, result.output
        assert named in result.output and len(result.output.strip().splitlines()) == 1
    pinned = runner.invoke(app, [*base, "--pinned", "yes", "--updated-after", "2020-01-01"])
    assert pinned.output == "- [profile] Ana is left-handed\n"
    nobody = runner.invoke(app, ["memory", "query", "--person", "zed", "--db-url", db_url])
    assert nobody.exit_code == 2
    with open_store(db_url).read() as session:
        assert get_person(session, "ana").name == "ana"


def test_the_cli_defaults_are_the_apis() -> None:
    from pipeline.cli import memory_query as cli
    from pipeline.memory import query as api

    defaults = MemoryQuery(person="ana")
    assert cli._DEFAULT_TOP_K == api.DEFAULT_TOP_K == defaults.top_k
    assert cli._DEFAULT_BUDGET == api.DEFAULT_BUDGET_TOKENS == defaults.budget_tokens
    assert defaults.threshold == cli._DEFAULT_THRESHOLD


def test_rag_length_caps_a_category_and_the_next_page_fills_top_k(
    store, tmp_path, monkeypatch
) -> None:
    from pipeline.categories import DEFAULT_FILE

    capped = DEFAULT_FILE.read_text().replace(
        "  - name: events\n    context: rag\n    rag_length: 30",
        "  - name: events\n    context: rag\n    rag_length: 1",
    )
    assert "rag_length: 1\n" in capped
    (tmp_path / "categories.yaml").write_text(capped)
    monkeypatch.setenv("CONVERSE_CATEGORIES_FILE", str(tmp_path / "categories.yaml"))
    with store.write() as session:
        ana = create_person(session, "ana")
        assert ana.personal_engagement_id is not None
        for content, category in [
            ("Ana is left-handed", "profile"),
            ("Ana is a nurse", "profile"),
            *[(f"Ana ran race {n}", "events") for n in range(5)],  # the newest five
        ]:
            repo.add_assertion(
                session,
                ana.personal_engagement_id,
                content,
                ActorKind.OPERATOR,
                NormativeForce.COMMITTED,
                category=category,
            )
    found = _result(store, top_k=3, mode="full")
    assert [i.content for i in found.items] == [
        "Ana ran race 4",
        "Ana is a nurse",
        "Ana is left-handed",
    ]
