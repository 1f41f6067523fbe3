"""The assertion lifecycle: unused, unimportant, unpinned facts are set aside by the sweep,
never reach a prompt, list, match or search while set aside, come back with restore, and are
purged (erased) 30 days later; a turn marks what it used in one statement
(docs/memory.md, "Lifecycle")."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, event, select, text, update
from typer.testing import CliRunner

from evals.cli import app
from pipeline.clock import utcnow
from pipeline.domain import ActorKind, Assertion, HistoryActor, HistoryOp, NormativeForce
from pipeline.memory import load_personal_memory, manage
from pipeline.store import Store, open_store, quick_read, upgrade
from pipeline.store import assertions as repo
from pipeline.store.embeddings import embedded_assertions
from pipeline.store.engine import alembic_config
from pipeline.store.history import history_of
from pipeline.store.lifecycle import Policy, sweep
from pipeline.store.people import get_person
from pipeline.store.tables import AssertionRow, HistoryRow, TurnRow
from tests.conftest import script

DAY = timedelta(days=1)
# A word found nowhere else, so the database file can be searched for it.
SECRET = "You keep a pet axolotl named Gubbins"


def _facts(store: Store, *specs: tuple[str, float, bool]) -> dict[str, Assertion]:
    """Committed personal facts of ana: (content, importance, pinned)."""
    made = {}
    with store.write() as session:
        personal = get_person(session, "ana").personal_engagement_id
        assert personal is not None
        for content, importance, pinned in specs:
            a = repo.add_assertion(
                session,
                personal,
                content,
                ActorKind.OPERATOR,
                NormativeForce.COMMITTED,
                importance=importance,
            )
            if pinned:
                repo.set_pinned(session, a.id, True, by=HistoryActor.CLI)
            made[content] = a
    return made


def _age(store: Store, days: float) -> None:
    """Every assertion last used `days` ago."""
    with store.write() as session:
        session.execute(update(AssertionRow).values(last_accessed_at=utcnow() - days * DAY))


def test_the_sweep_sets_aside_only_unused_unimportant_unpinned_facts(
    store: Store, make_person
) -> None:
    make_person(store)
    made = _facts(
        store,
        ("You like figs", 0.1, False),
        ("You like dates", 0.1, True),  # pinned
        ("You like plums", 0.9, False),  # important
        ("You like kiwis", 0.1, False),  # used recently (below)
    )
    _age(store, 61)
    with store.write() as session:
        session.execute(
            update(AssertionRow)
            .where(AssertionRow.id == made["You like kiwis"].id)
            .values(last_accessed_at=utcnow() - 59 * DAY)
        )

    with store.write() as session:
        done = sweep(session, utcnow())

    assert done.soft_deleted == (made["You like figs"].id,)
    assert done.purged == ()
    with store.read() as session:
        person = get_person(session, "ana")
        listed = [a.content for a in manage.personal_assertions(session, person)]
        everything = manage.personal_assertions(session, person, True, include_deleted=True)
        last = history_of(session, person.personal_engagement_id or 0, 1)[-1]
    assert listed == ["You like kiwis", "You like plums", "You like dates"]
    [aside] = [a for a in everything if a.deleted_at is not None]
    assert aside.content == "You like figs" and aside.force is NormativeForce.COMMITTED
    assert (last.op, last.actor) == (HistoryOp.TTL, HistoryActor.SYSTEM)
    assert last.detail["importance"] == 0.1


def test_a_set_aside_fact_reaches_no_prompt_match_recall_search_or_list(
    store: Store, make_person, say
) -> None:
    make_person(store)
    _facts(store, ("You're allergic to kumquats", 0.1, False), ("You live in Oslo", 0.9, False))
    _age(store, 61)
    with store.write() as session:
        sweep(session, utcnow())
    provider = script(
        {
            "message": "forget my kumquat allergy",
            "intent": "forget_about_me",
            "params": {"forget_description": "kumquat allergy"},
        },
        {
            "message": "what am I allergic to?",
            "intent": "ask_about_past_input",
            "params": {"query": "allergic kumquats"},
        },
        {"message": "hello", "intent": "general_conversation"},
    )

    forget = say(store, provider, "forget my kumquat allergy")
    recall = say(store, provider, "what am I allergic to?")
    project_turn = say(store, provider, "hello", project="Garden")

    assert forget.route.operation_data["action"] == "no_match"
    assert recall.route.operation_data["action"] == "no_match"
    assert "kumquat" not in project_turn.personal_memory
    assert "Oslo" in project_turn.personal_memory
    assert "kumquat" not in project_turn.prompt.text
    with store.read() as session:
        person = get_person(session, "ana")
        personal = person.personal_engagement_id
        assert personal is not None
        block = load_personal_memory(session, personal)
        searched = embedded_assertions(session, [personal], "any-model")
        live = repo.find_live(session, personal, "You're allergic to kumquats")
    assert "kumquat" not in block
    assert [a.content for a in searched] == ["You live in Oslo"]
    assert live is None
    if store.dialect == "sqlite":
        url = store.engine.url.render_as_string(hide_password=False)
        listed = quick_read.personal_assertions(url, "ana", include_retracted=True)
        assert listed is not None and [a.content for a in listed] == ["You live in Oslo"]


def test_restore_brings_a_set_aside_fact_back_as_it_was(store: Store, make_person) -> None:
    make_person(store)
    _facts(store, ("You like figs", 0.1, False))
    _age(store, 61)
    with store.write() as session:
        sweep(session, utcnow())
        person = get_person(session, "ana")
        with pytest.raises(Exception, match="set aside by the lifecycle sweep"):
            manage.retract(session, person, 1)

    with store.write() as session:
        back = manage.restore(session, get_person(session, "ana"), 1)

    assert back.deleted_at is None and back.force is NormativeForce.COMMITTED
    with store.read() as session:
        person = get_person(session, "ana")
        assert "You like figs" in load_personal_memory(session, person.personal_engagement_id or 0)
        ops = [h.op for h in history_of(session, person.personal_engagement_id or 0, 1)]
    assert ops == [HistoryOp.ADD, HistoryOp.TTL, HistoryOp.RESTORE]
    # Used just now: the next sweep leaves it alone.
    with store.write() as session:
        assert sweep(session, utcnow()).soft_deleted == ()


def test_thirty_days_after_the_sweep_a_fact_is_purged_with_its_text_everywhere(
    sqlite_url: str, make_person, say
) -> None:
    store = open_store(sqlite_url)
    try:
        make_person(store)
        provider = script(
            {
                "message": "I keep a pet axolotl named Gubbins",
                "intent": "remember_about_me",
                "params": {"personal_fact": SECRET},
            },
            {"message": "yes", "after": "remember_about_me", "intent": "remember_about_me"},
        )
        say(store, provider, "I keep a pet axolotl named Gubbins")
        say(store, provider, "yes")
        with store.write() as session:
            person = get_person(session, "ana")
            manage.importance_on(session, manage.personal_shelf(person), 1, 0.1)
        _age(store, 61)
        with store.write() as session:
            assert len(sweep(session, utcnow()).soft_deleted) == 1
        with store.write() as session:  # 29 days later: still set aside
            assert sweep(session, utcnow() + 29 * DAY).purged == ()

        with store.write() as session:
            done = sweep(session, utcnow() + 31 * DAY)
        assert store.checkpoint()

        assert len(done.purged) == 1
        raw = b"".join(
            p.read_bytes()
            for p in Path(sqlite_url.removeprefix("sqlite:///")).parent.iterdir()
            if p.name.startswith("converse.db")
        ).lower()
        assert b"axolotl" not in raw and b"gubbins" not in raw
        with store.read() as session:
            person = get_person(session, "ana")
            entries = history_of(session, person.personal_engagement_id or 0, 1)
            turns = session.scalars(select(TurnRow.content)).all()
            left = repo.list_assertions(
                session, person.personal_engagement_id or 0, None, None, 0, True
            )
        assert left == []
        assert [h.op for h in entries][-2:] == [HistoryOp.TTL, HistoryOp.DELETE]
        assert entries[-1].detail == {"reason": "purged"}
        assert entries[-1].actor is HistoryActor.SYSTEM
        assert all(h.old_content is None and h.new_content is None for h in entries)
        assert set(turns) == {"[erased at the person's request]"}
    finally:
        store.dispose()


def _two_at_once(first: Store, second: Store, days_later: float) -> list[Any]:
    """Run a sweep in each store handle at the same moment (as two processes would)."""
    barrier = threading.Barrier(2)
    results: list[Any] = []

    def run(store: Store) -> None:
        barrier.wait()
        with store.write() as session:
            results.append(sweep(session, utcnow() + days_later * DAY))

    threads = [threading.Thread(target=run, args=(s,)) for s in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(results) == 2
    return results


def test_two_sweeps_at_once_set_each_fact_aside_and_purge_it_once(db_url: str, make_person) -> None:
    first, second = open_store(db_url), open_store(db_url)
    try:
        make_person(first)
        _facts(first, *((f"You like fruit number {i}", 0.1, False) for i in range(40)))
        _age(first, 61)

        set_aside = _two_at_once(first, second, 0)

        assert sorted(len(r.soft_deleted) for r in set_aside) == [0, 40]
        with first.read() as session:
            ttl = session.scalars(select(HistoryRow.assertion_id).where(HistoryRow.op == "TTL"))
            assert sorted(ttl) == sorted(r for done in set_aside for r in done.soft_deleted)

        purged = _two_at_once(first, second, 31)

        assert sorted(len(r.purged) for r in purged) == [0, 40]
        with first.read() as session:
            deletes = session.scalars(
                select(HistoryRow.assertion_id).where(HistoryRow.op == "DELETE")
            ).all()
            left = session.scalars(select(AssertionRow.id)).all()
        assert sorted(deletes) == sorted(r for done in purged for r in done.purged)
        assert left == []
    finally:
        first.dispose()
        second.dispose()


def _count_statements(store: Store) -> tuple[list[tuple[str, int]], Callable[[], None]]:
    """Every statement the store runs, with the rows it changed."""
    seen: list[tuple[str, int]] = []

    def after(_conn: Any, cursor: Any, statement: str, *_args: Any) -> None:
        seen.append((statement, cursor.rowcount))

    event.listen(store.engine, "after_cursor_execute", after)
    return seen, lambda: event.remove(store.engine, "after_cursor_execute", after)


def test_a_turn_marks_what_its_prompt_used_in_one_statement(store: Store, make_person, say) -> None:
    make_person(store)
    made = _facts(store, ("You like figs", 0.5, False), ("You live in Oslo", 0.5, False))
    _age(store, 10)
    provider = script({"message": "hello", "intent": "general_conversation"})
    seen, stop = _count_statements(store)
    try:
        outcome = say(store, provider, "hello", project="Garden")
        again = len(seen)
        say(store, provider, "hello", project="Garden")
    finally:
        stop()

    marks = [n for s, n in seen if s.lstrip().upper().startswith("UPDATE ASSERTIONS")]
    # One statement for the first turn; the second turn's prompt shows both, read as marked
    # within the day, so it runs no marking statement at all.
    assert marks == [2]
    # Besides it, a turn updates only its conversation's bookkeeping (docs/conversations.md).
    updates = [
        s.lstrip().upper() for s, _ in seen[:again] if s.lstrip().upper().startswith("UPDATE")
    ]
    assert [u for u in updates if not u.startswith("UPDATE CONVERSATIONS ")] == [updates[-1]]
    assert updates[-1].startswith("UPDATE ASSERTIONS")
    with store.read() as session:
        used = {a.content: a.last_accessed_at for a in repo.list_assertions(session, 1)}
    assert "You like figs" in outcome.personal_memory
    assert all(
        moment is not None and utcnow() - moment < timedelta(minutes=5) for moment in used.values()
    )
    assert set(used) == set(made)
    with store.read() as session:
        history = session.scalars(select(HistoryRow.op)).all()
    assert history.count("UPDATE") == 0  # marking a use is not a write to the history


runner = CliRunner()


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.setenv("COLUMNS", "200")
    assert runner.invoke(app, ["person", "add", "ana"]).exit_code == 0
    return url


def test_worker_run_once_sets_aside_and_list_deleted_shows_it(env: str, monkeypatch) -> None:
    store = open_store(env)
    try:
        _facts(store, ("You like figs", 0.5, False), ("You like plums", 0.5, False))
        _age(store, 61)
    finally:
        store.dispose()
    # The default threshold (0.3) keeps facts of the default importance (0.5).
    kept = runner.invoke(app, ["worker", "run-once"])
    assert kept.exit_code == 0, kept.output
    assert "0 set aside, 0 purged" in kept.output
    assert runner.invoke(app, ["memory", "pin", "2", "--person", "ana"]).exit_code == 0
    monkeypatch.setenv("CONVERSE_LIFECYCLE_IMPORTANCE_THRESHOLD", "0.6")

    done = runner.invoke(app, ["worker", "run-once"])

    assert done.exit_code == 0, done.output
    assert "1 set aside, 0 purged" in done.output
    listed = runner.invoke(app, ["memory", "list", "--person", "ana"])
    assert "figs" not in listed.output and "plums" in listed.output
    deleted = runner.invoke(app, ["memory", "list", "--person", "ana", "--deleted"])
    assert "figs" in deleted.output and "set aside" in deleted.output
    history = runner.invoke(app, ["memory", "history", "1", "--person", "ana"])
    assert "TTL" in history.output and "background job" in history.output
    back = runner.invoke(app, ["memory", "restore", "1", "--person", "ana"])
    assert back.exit_code == 0 and "Restored #1: You like figs" in back.output
    assert "figs" in runner.invoke(app, ["memory", "list", "--person", "ana"]).output

    # Restoring counted as a use; unused again, it is set aside again, and can be erased
    # without being restored first.
    store = open_store(env)
    try:
        _age(store, 61)
    finally:
        store.dispose()
    assert "1 set aside" in runner.invoke(app, ["worker", "run-once"]).output
    refused = runner.invoke(app, ["memory", "forget", "1", "--person", "ana"])
    assert refused.exit_code == 2 and "set aside by the lifecycle sweep" in refused.output
    erased = runner.invoke(app, ["memory", "erase", "1", "--person", "ana", "--yes"])
    assert erased.exit_code == 0, erased.output
    everything = runner.invoke(app, ["memory", "list", "--person", "ana", "--all", "--deleted"])
    assert "figs" not in everything.output and "plums" in everything.output


def _one_line_error(result: Any) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["memory", "pin", "0"],
            "error: there is no #0 — see the numbers with `converse memory list --person NAME`",
        ),
        (
            ["memory", "unpin", "1"],
            "error: #1 is already not pinned — nothing to change",
        ),
        (
            ["memory", "importance", "1", "1.5"],
            "error: importance 1.5 is not between 0 and 1 — give a number such as 0.2",
        ),
        (
            ["memory", "restore", "1"],
            "error: #1 is not retracted (it is committed) — nothing to restore",
        ),
    ],
)
def test_bad_lifecycle_input_is_one_line_and_changes_nothing(env: str, args, expected) -> None:
    store = open_store(env)
    try:
        _facts(store, ("You like figs", 0.5, False))
    finally:
        store.dispose()
    assert _one_line_error(runner.invoke(app, [*args, "--person", "ana"])) == expected


def test_a_bad_threshold_setting_is_one_line(env: str, monkeypatch) -> None:
    monkeypatch.setenv("CONVERSE_LIFECYCLE_IMPORTANCE_THRESHOLD", "lots")
    assert _one_line_error(runner.invoke(app, ["worker", "run-once"])) == (
        "error: CONVERSE_LIFECYCLE_IMPORTANCE_THRESHOLD='lots' is not valid: input should be a "
        "valid number, unable to parse string as a number — fix or unset "
        "CONVERSE_LIFECYCLE_IMPORTANCE_THRESHOLD (docs/settings.md lists every setting)"
    )


def test_policy_defaults_match_the_documented_rule() -> None:
    policy = Policy()
    assert (policy.unused, policy.importance_below, policy.purge_after) == (
        60 * DAY,
        0.3,
        30 * DAY,
    )


def test_upgrading_from_0004_keeps_every_row_and_dates_last_use_from_the_last_update(
    db_url: str,
) -> None:
    engine = create_engine(db_url)
    with engine.begin() as conn:
        config = alembic_config(db_url)
        config.attributes["connection"] = conn
        command.upgrade(config, "0004")
        conn.execute(
            text("INSERT INTO persons (id, name, created_at) VALUES (1, 'a', '2026-01-01')")
        )
        conn.execute(
            text(
                "INSERT INTO engagements (id, name, visibility, seed, created_at,"
                " last_display_number) VALUES (1, 'p', 'personal', 's', '2026-01-01', 1)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO assertions (id, engagement_id, display_number, content, actor,"
                " force, created_at, updated_at) VALUES (1, 1, 1, 'x', 'operator', 'committed',"
                " '2026-01-01 00:00:00', '2026-02-03 04:05:06')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO assertion_embeddings (assertion_id, model, embedder, dim,"
                " content_sha256, vector, created_at) VALUES (1, 'm', 'e', 1, 's', :v,"
                " '2026-01-01')"
            ),
            {"v": b"\x00\x00\x00\x00"},
        )
        conn.execute(
            text(
                "INSERT INTO conversation_turns (id, person_id, engagement_id, role, content,"
                " operation_data, prompt_refs, channel, meta, created_at) VALUES (1, 1, 1,"
                " 'operator', 'x', '{}', '[]', 'cli', '{}', '2026-01-01')"
            )
        )
        conn.execute(text("INSERT INTO turn_assertions (turn_id, assertion_id) VALUES (1, 1)"))
    engine.dispose()

    upgrade(db_url)

    store = open_store(db_url)
    try:
        with store.read() as session:
            [fact] = repo.list_assertions(session, 1)
            kept = session.execute(
                text(
                    "SELECT (SELECT count(*) FROM assertion_embeddings),"
                    " (SELECT count(*) FROM turn_assertions)"
                )
            ).one()
        assert tuple(kept) == (1, 1)
        assert (fact.importance, fact.pinned, fact.deleted_at) == (0.5, False, None)
        assert fact.last_accessed_at == fact.updated_at
    finally:
        store.dispose()


def test_a_project_note_shown_again_is_marked_again_only_after_the_resolution(
    store: Store, make_person, say
) -> None:
    _person, project = make_person(store)
    with store.write() as session:
        note = repo.add_assertion(
            session, project.id, "The beds face south", ActorKind.OPERATOR, NormativeForce.COMMITTED
        )
    _age(store, 10)
    provider = script({"message": "hello", "intent": "general_conversation"})
    seen, stop = _count_statements(store)
    try:
        say(store, provider, "hello", project="Garden")  # marks the note
        first = len(seen)
        say(store, provider, "hello", project="Garden")  # shown again within the day
        second = len(seen)
        _age(store, 2)
        say(store, provider, "hello", project="Garden")  # shown again two days later
    finally:
        stop()

    def marks(statements: list[tuple[str, int]]) -> list[int]:
        return [n for s, n in statements if s.lstrip().upper().startswith("UPDATE ASSERTIONS")]

    assert marks(seen[:first]) == [1]
    assert marks(seen[first:second]) == []
    # _age's own UPDATE comes first, then the third turn marks the note again
    assert marks(seen[second:])[-1] == 1
    with store.read() as session:
        used = repo.get_assertion(session, note.id).last_accessed_at
    assert used is not None and utcnow() - used < timedelta(minutes=5)
