"""Memory-aware classification: the person's relevant confirmed memories and the open threads
a message touches are put before the classifier, kept with the turn, and explained
(pipeline/conversations/recall.py, pipeline/providers/classifier_system.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from typer.testing import CliRunner

from evals.cli import app
from pipeline.conversations import close_conversation, confirm_conversation, get_active_conversation
from pipeline.conversations.recall import explain_classification
from pipeline.converse import converse
from pipeline.domain import MemoryNote
from pipeline.english import ENGLISH
from pipeline.errors import NotFound
from pipeline.lexicon import NO_LEXICON, Lexicon
from pipeline.prompting import default_library
from pipeline.providers.base import ClassifyRequest, Providers
from pipeline.providers.classifier_system import classifier_system_prompt
from pipeline.providers.claude.wire import classifier_system
from pipeline.providers.local import MiniLMEmbedder
from pipeline.providers.scripted import ScriptedProvider, ScriptEntry
from pipeline.reading import ClassifiedIntent
from pipeline.store import Store
from tests.conversations.helpers import talk


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return MiniLMEmbedder()


@dataclass
class Recording:
    """A classifier that answers conversation and keeps what it was asked."""

    name: str = "recording"
    asked: list[ClassifyRequest] = field(default_factory=list)

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        self.asked.append(request)
        return ClassifiedIntent(intent="general_conversation", provider=self.name)


def _remembered(store: Store, name: str, embedder: MiniLMEmbedder, *messages: str) -> None:
    talk(store, name, *messages)
    with store.read() as session:
        from pipeline.store.people import get_person

        person_id = get_person(session, name).id
    conversation = get_active_conversation(store, person_id)
    assert conversation is not None
    close_conversation(
        store,
        person_id,
        conversation.id,
        library=default_library(),
        generator=None,
        lexicon=ENGLISH,
    )
    confirm_conversation(store, person_id, conversation.id, embedder=embedder)


def _say(
    store: Store,
    name: str,
    message: str,
    embedder: MiniLMEmbedder,
    lexicon: Lexicon = NO_LEXICON,
) -> Recording:
    recording = Recording()
    replies = ScriptedProvider(
        [ScriptEntry(message=message, intent="general_conversation", params={}, reply="Hm.")]
    )
    converse(
        store,
        person=name,
        message=message,
        providers=Providers.of(recording, replies, embedder=embedder, lexicon=lexicon),
    )
    return recording


def test_relevant_memories_and_touched_threads_reach_the_classifier_and_are_explained(
    store, make_person, embedder
) -> None:
    ana, _ = make_person(store, "ana")
    ben, _ = make_person(store, "ben")
    _remembered(
        store,
        "ana",
        embedder,
        "I decided to go with the oak cabinets for the kitchen.",
        "I'm waiting on Dana for the countertop quote.",
    )

    asked = _say(store, "ana", "Has Dana sent the countertop quote yet?", embedder).asked
    (request,) = asked
    kinds = [n.kind for n in request.memories]
    assert "memory" in kinds and "waiting_on" in kinds
    assert any("Dana" in n.text for n in request.memories)

    with store.read() as session:
        from pipeline.store.turns import recent_turns

        turn = recent_turns(session, ana.id, None, 2)[0]
    message_id = turn.id if turn.role.value == "operator" else turn.id - 1
    explained = explain_classification(store, ana.id, message_id)
    assert explained.message == "Has Dana sent the countertop quote yet?"
    assert explained.provider == "recording"
    assert len(explained.influences) == len(request.memories)
    assert all(i.reason for i in explained.influences)
    # A thread's reference names the thread, not only the memory that holds it.
    assert any(i.reason.startswith("open waiting on 'Dana") for i in explained.influences)

    # Ben has no memories; his classifier sees nothing of Ana's, and Ana's turn is not his.
    (bens,) = _say(store, "ben", "Has Dana sent the countertop quote yet?", embedder).asked
    assert bens.memories == ()
    with pytest.raises(NotFound):
        explain_classification(store, ben.id, message_id)


def test_a_message_touches_a_thread_only_by_words_its_language_says_name_something(
    store, make_person, embedder
) -> None:
    make_person(store, "ana")
    _remembered(store, "ana", embedder, "I'm waiting on Dana for the countertop quote.")

    def threads(message: str, lexicon: Lexicon) -> list[str]:
        (request,) = _say(store, "ana", message, embedder, lexicon).asked
        return [n.kind for n in request.memories if n.kind != "memory"]

    # With no lexicon lent every word counts, so "the" alone touches the thread; the English
    # lexicon the bundle lends says it names nothing.
    assert threads("what about the weather", NO_LEXICON) == ["waiting_on"]
    assert threads("what about the weather", ENGLISH) == []
    assert threads("any news on the countertop quote", ENGLISH) == ["waiting_on"]


def test_the_memory_section_is_added_only_when_there_are_memories() -> None:
    library = default_library()
    plain = ClassifyRequest(message="hi", project_name="Kitchen")
    note = MemoryNote(memory_id=1, kind="memory", text="Ana chose oak.", score=0.8, reason="r")
    with_memory = ClassifyRequest(message="hi", project_name="Kitchen", memories=(note,))

    text, refs = classifier_system_prompt(library, plain)
    assert "RELEVANT MEMORIES" not in text and [r.family for r in refs] == ["classifier"]
    fuller, refs = classifier_system_prompt(library, with_memory)
    assert fuller.startswith(text.rstrip())
    assert [r.family for r in refs] == ["classifier", "classifier_memory"]
    assert '<untrusted kind="memory">\nAna chose oak.\n</untrusted>' in fuller
    # Claude: the memories go in the per-turn block, after the cached prefix.
    blocks = classifier_system(fuller)
    assert "cache_control" in blocks[0] and "RELEVANT MEMORIES" not in blocks[0]["text"]
    assert "RELEVANT MEMORIES" in blocks[-1]["text"]


runner = CliRunner()


def test_explain_cli_names_the_memories_or_says_there_were_none(
    tmp_path, monkeypatch, embedder
) -> None:
    from pipeline.store import open_store, upgrade
    from pipeline.store.people import create_person

    url = f"sqlite:///{tmp_path / 'x.db'}"
    upgrade(url)
    store = open_store(url)
    with store.write() as session:
        create_person(session, "ana")
    _remembered(store, "ana", embedder, "I'm waiting on Dana for the countertop quote.")
    _say(store, "ana", "any word from Dana on the countertop?", embedder)
    _say(store, "ana", "lovely weather today", embedder)
    store.dispose()
    monkeypatch.setenv("CONVERSE_DB_URL", url)
    monkeypatch.setenv("COLUMNS", "200")
    # Turns 1-2 were the closed conversation; 3 and 5 are the two later messages.
    done = runner.invoke(app, ["explain", "3", "--person", "ana"])
    assert done.exit_code == 0, done.output
    assert "Classified general_conversation by recording" in done.output
    assert "waiting on" in done.output.lower() and "Dana" in done.output
    none = runner.invoke(app, ["explain", "5", "--person", "ana"])
    assert "No memory was put before the classifier" in none.output
    missing = runner.invoke(app, ["explain", "4", "--person", "ana"])  # a companion turn
    assert missing.exit_code != 0 and "no message 4" in missing.output
