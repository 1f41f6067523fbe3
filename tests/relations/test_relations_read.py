"""memory.query reads the relations: a candidate related to a top result is boosted, and up to
two related facts follow the results, marked, under the same filters and allowlist; a
retracted or set-aside fact never comes back through an edge (pipeline/memory/query.py)."""

from __future__ import annotations

import pytest
from relations_helpers import TableEmbedder, add_facts, toward
from sqlalchemy import update
from typer.testing import CliRunner

from evals.cli import app
from pipeline.clock import utcnow
from pipeline.domain import HistoryActor, NormativeForce
from pipeline.memory.query import MemoryQuery, QueryResult, memory_query
from pipeline.store import Store, open_store
from pipeline.store import assertions as repo
from pipeline.store.relations import link
from pipeline.store.tables import AssertionRow

# The query is axis 1; each fact's similarity to it is its cosine on that axis.
EMBEDDER = TableEmbedder(
    {
        "instrument": toward(1, 1.0),
        "viola": toward(1, 0.9, 2),
        "drum": toward(1, 0.62, 3),
        "harp": toward(1, 0.60, 4),
        "teacher": toward(1, 0.1, 5),
        "bow": toward(1, 0.05, 6),
        "strings": toward(1, 0.05, 7),
        "repaired": toward(1, 0.1, 8),
        "sold": toward(1, 0.1, 9),
    }
)
BY = HistoryActor.COMPANION


def _query(store: Store, **fields: object) -> QueryResult:
    request = MemoryQuery(person="ana", query="which instrument?", **fields)  # type: ignore[arg-type]
    with store.write() as session:
        return memory_query(session, request, EMBEDDER)


def _relate(store: Store, a: int, *others: tuple[int, float]) -> None:
    with store.write() as session:
        link(session, a, list(others), by=BY)


def test_a_candidate_related_to_a_top_result_is_boosted(store: Store) -> None:
    ids = add_facts(
        store,
        "ana",
        [
            ("viola", "Ana plays the viola"),
            ("drum", "Ana owns a drum"),
            ("harp", "Ana tunes a harp"),
        ],
    )
    before = _query(store, top_k=2)
    assert [i.id for i in before.items] == [ids["viola"], ids["drum"]]

    _relate(store, ids["viola"], (ids["harp"], 0.8))
    after = _query(store, top_k=2)

    assert [i.id for i in after.items] == [ids["viola"], ids["harp"]]
    harp = after.items[1]
    assert harp.related_to is None  # ranked on its own merit, raised by the edge
    assert harp.score is not None and harp.similarity is not None
    assert harp.score > before.items[1].score  # type: ignore[operator]


def test_related_facts_follow_the_results_marked_at_most_two(store: Store) -> None:
    ids = add_facts(
        store,
        "ana",
        [
            ("viola", "Ana plays the viola"),
            ("teacher", "Ana's teacher is Mr Lee"),
            ("bow", "Ana rosins the bow weekly"),
            ("strings", "Ana buys gut strings"),
        ],
    )
    _relate(store, ids["viola"], (ids["teacher"], 0.7), (ids["bow"], 0.65), (ids["strings"], 0.6))

    result = _query(store)

    assert [i.id for i in result.items] == [ids["viola"], ids["teacher"], ids["bow"]]
    related = result.items[1]
    assert related.related_to == ids["viola"]
    assert related.text == "[profile, related] Ana's teacher is Mr Lee"
    shown = result.shown()["items"]
    assert shown[1] == {  # type: ignore[index]
        "id": ids["teacher"],
        "category": "profile",
        "related_to": ids["viola"],
        "text": "[profile, related] Ana's teacher is Mr Lee",
    }
    assert "related_to" not in shown[0]  # type: ignore[index]
    assert result.used_tokens == -(-sum(len(i.text) + 1 for i in result.items) // 4)


def test_a_retracted_or_set_aside_fact_never_comes_through_an_edge(store: Store) -> None:
    ids = add_facts(
        store,
        "ana",
        [
            ("viola", "Ana plays the viola"),
            ("repaired", "Ana's viola is being repaired"),
            ("sold", "Ana sold her old viola"),
            ("teacher", "Ana's teacher is Mr Lee"),
        ],
    )
    _relate(store, ids["viola"], (ids["repaired"], 0.9), (ids["sold"], 0.85), (ids["teacher"], 0.5))
    with store.write() as session:
        session.execute(
            update(AssertionRow)
            .where(AssertionRow.id == ids["repaired"])
            .values(deleted_at=utcnow())
        )
        repo.set_force(session, ids["sold"], NormativeForce.RETRACTED, by=BY)

    result = _query(store)

    assert [i.id for i in result.items] == [ids["viola"], ids["teacher"]]
    assert all("repaired" not in i.text and "sold" not in i.text for i in result.items)


def test_related_facts_obey_the_readers_allowlist(store: Store) -> None:
    ids = add_facts(
        store, "ana", [("viola", "Ana plays the viola"), ("teacher", "Ana's teacher is Mr Lee")]
    )
    with store.write() as session:
        repo.set_category(session, ids["viola"], "preferences", by=BY)
    _relate(store, ids["viola"], (ids["teacher"], 0.9))

    stylist = _query(store, agent="stylist")  # may read preferences only
    companion = _query(store)

    assert [i.id for i in stylist.items] == [ids["viola"]]
    assert [i.id for i in companion.items] == [ids["viola"], ids["teacher"]]
    narrowed = _query(store, categories=("preferences",))
    assert [i.id for i in narrowed.items] == [ids["viola"]]


def test_filter_only_queries_add_related_facts_too(store: Store) -> None:
    ids = add_facts(
        store, "ana", [("viola", "Ana plays the viola"), ("teacher", "Ana's teacher is Mr Lee")]
    )
    with store.write() as session:
        repo.set_category(session, ids["viola"], "preferences", by=BY)
    _relate(store, ids["viola"], (ids["teacher"], 0.9))
    request = MemoryQuery(person="ana", categories=("preferences", "profile"), top_k=1)

    with store.write() as session:
        result = memory_query(session, request)

    assert [(i.id, i.related_to) for i in result.items] == [
        (ids["viola"], None),  # the newest updated (its category changed last)
        (ids["teacher"], ids["viola"]),
    ]


runner = CliRunner()


@pytest.fixture
def cli_store(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    opened = open_store(url)
    yield opened
    opened.dispose()


def test_memory_related_lists_live_related_facts_and_history_shows_the_link(cli_store) -> None:
    ids = add_facts(
        cli_store,
        "Ana",
        [
            ("viola", "You play the viola"),
            ("teacher", "Your teacher is Mr Lee"),
            ("sold", "You sold your old viola"),
            ("tea", "You drink green tea"),
        ],
    )
    _relate(cli_store, ids["viola"], (ids["teacher"], 0.71), (ids["sold"], 0.6))
    with cli_store.write() as session:
        repo.set_force(session, ids["sold"], NormativeForce.RETRACTED, by=BY)

    result = runner.invoke(app, ["memory", "related", "1", "--person", "Ana"])

    assert result.exit_code == 0, result.output
    assert "Facts related to #1 in Ana's personal memory" in result.output
    rows = [line for line in result.output.splitlines() if "│" in line]
    assert len(rows) == 1 and "Your teacher is Mr Lee" in rows[0] and "0.71" in rows[0]
    assert "1 related fact(s) retracted or set aside are not shown." in result.output

    history = runner.invoke(app, ["memory", "history", "1", "--person", "Ana"])
    assert history.exit_code == 0, history.output
    assert "LINK" in history.output and "related to #2 (strength 0.71)" in history.output

    other_end = runner.invoke(app, ["memory", "related", "2", "--person", "Ana"])
    assert other_end.exit_code == 0, other_end.output
    assert "Facts related to #2" in other_end.output and "You play the viola" in other_end.output
    none = runner.invoke(app, ["memory", "related", "4", "--person", "Ana"])
    assert none.exit_code == 0, none.output
    assert "#4 in Ana's personal memory is related to no live fact." in none.output
    missing = runner.invoke(app, ["memory", "related", "9", "--person", "Ana"])
    assert missing.exit_code != 0
    assert "has no #9" in missing.output
