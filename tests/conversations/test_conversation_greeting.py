"""The startup greeting's data and the Markdown export, from confirmed memories only."""

from __future__ import annotations

from datetime import timedelta

from typer.testing import CliRunner

from evals.cli import app
from pipeline.clock import utcnow
from pipeline.conversations import (
    close_conversation,
    confirm_conversation,
    edit_memory,
    get_active_conversation,
    memories_markdown,
    startup_greeting,
)
from pipeline.english import ENGLISH
from pipeline.prompting import default_library
from pipeline.store import Store
from tests.conversations.helpers import talk


def _keep(store: Store, person_id: int, name: str, *messages: str, confirm: bool = True):
    talk(store, name, *messages)
    conversation = get_active_conversation(store, person_id)
    assert conversation is not None
    preview = close_conversation(
        store,
        person_id,
        conversation.id,
        library=default_library(),
        generator=None,
        lexicon=ENGLISH,
    )
    if confirm:
        confirm_conversation(store, person_id, conversation.id, embedder=None)
    return preview


def test_the_greeting_lists_open_threads_recent_decisions_and_stale_tasks(store, make_person):
    person, _ = make_person(store)
    _keep(
        store,
        person.id,
        "ana",
        "I'm not sure which mulch keeps slugs away",
        "I'm waiting on Tom for the timber quote",
        "I decided to plant garlic in October",
        "I need to fix the greenhouse door",
    )
    now = utcnow()
    greeting = startup_greeting(store, person.id, now)
    assert greeting.open_conversation is None
    assert [e.text for e in greeting.open_questions] == ["which mulch keeps slugs away"]
    assert [e.text for e in greeting.waiting_on] == ["Tom: the timber quote"]
    assert [e.text for e in greeting.recent_decisions] == ["plant garlic in October"]
    assert greeting.stale_tasks == ()  # a task of today is not stale
    later = startup_greeting(store, person.id, now + timedelta(days=20))
    assert [e.text for e in later.stale_tasks] == ["fix the greenhouse door (open)"]
    assert later.recent_decisions == ()  # older than 7 days
    # A draft (not yet confirmed) adds nothing; the open conversation is named.
    _keep(store, person.id, "ana", "I'm not sure whether to paint the fence", confirm=False)
    drafted = startup_greeting(store, person.id, now)
    assert drafted.open_conversation is not None
    assert [e.text for e in drafted.open_questions] == ["which mulch keeps slugs away"]


def test_the_greeting_of_one_person_holds_nothing_of_another(store, make_person):
    ana, _ = make_person(store)
    bob, _ = make_person(store, "bob", "Boat")
    _keep(store, ana.id, "ana", "I'm waiting on Tom for the timber quote")
    greeting = startup_greeting(store, bob.id, utcnow())
    assert greeting.waiting_on == () and greeting.open_questions == ()
    assert "Tom" not in memories_markdown(store, bob.id)


def test_the_markdown_export_groups_by_destination_and_escapes_markup(store, make_person):
    person, _ = make_person(store)
    preview = _keep(store, person.id, "ana", "I decided to use *bold* [links](x) # in notes")
    edit_memory(store, person.id, preview.memories[0].id, "Ana chose *plain* notes. That's all.")
    text = memories_markdown(store, person.id)
    assert text.startswith("# Memories of ana\n")
    assert "## Your Story" in text
    assert "Ana chose \\*plain\\* notes. That's all." in text
    assert "*As first extracted:*" in text
    assert "- Decision: use \\*bold\\* \\[links\\](x) \\# in notes" in text


def test_the_cli_prints_the_greeting_and_the_export(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'g.db'}"
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.setenv("COLUMNS", "200")
    runner = CliRunner()
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    from pipeline.store import open_store
    from pipeline.store.people import get_person

    store = open_store(url)
    with store.read() as session:
        person_id = get_person(session, "Ana").id
    _keep(store, person_id, "Ana", "I'm waiting on Tom for the timber quote")
    store.dispose()
    greeting = runner.invoke(app, ["conversation", "greeting", "--person", "Ana"])
    assert greeting.exit_code == 0, greeting.output
    assert "Waiting on:\n  • Tom: the timber quote" in greeting.stdout
    assert "Open questions: none" in greeting.stdout
    out = tmp_path / "memories.md"
    done = runner.invoke(app, ["conversation", "export", "--person", "Ana", "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert "- Waiting on: Tom: the timber quote" in out.read_text()
