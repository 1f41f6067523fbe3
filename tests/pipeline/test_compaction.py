"""Compaction bounds a conversation's history: older turns are folded into a summary that the
next turns carry, which becomes working memory, and whose durable facts are held for the
person to confirm (issue 12; specifications 001 and 002)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pipeline.converse import TurnOutcome, converse
from pipeline.domain import Engagement, HistoryTurn, NormativeForce, Person, Role
from pipeline.english import ENGLISH
from pipeline.errors import InvalidMessage, ProviderError
from pipeline.memory.manage import personal_assertions
from pipeline.memory.working import readable
from pipeline.providers.base import ClassifyRequest, Providers, RespondRequest
from pipeline.providers.summarize import Summarizer, SummarizeRequest, Summary
from pipeline.store import Store
from pipeline.store.compactions import latest_compaction
from pipeline.store.people import get_person
from pipeline.store.sessions import working_document
from tests.conftest import script

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


class Recording:
    """A scripted provider that keeps what the responder was sent."""

    def __init__(self) -> None:
        self.inner = script()
        self.sent: list[RespondRequest] = []

    def classify(self, request: ClassifyRequest):  # type: ignore[no-untyped-def]
        return self.inner.classify(request)

    def respond(self, request: RespondRequest):  # type: ignore[no-untyped-def]
        self.sent.append(request)
        return self.inner.respond(request)


class Writer:
    """A summarizer that says which turns it folded and reports the facts it is given."""

    name = "test-writer"

    def __init__(self, facts: tuple[str, ...] = (), fail: bool = False) -> None:
        self.facts = facts
        self.fail = fail
        self.requests: list[SummarizeRequest] = []

    def summarize(self, request: SummarizeRequest) -> Summary:
        self.requests.append(request)
        if self.fail:
            raise ProviderError("the summarizer is down", "try later")
        said = " | ".join(t.content for t in request.turns)
        return Summary(f"[{request.previous_summary}] {said}", self.facts, method="test-writer")


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONVERSE_COMPACTION_THRESHOLD_TOKENS", "500")  # 2,000 characters
    monkeypatch.setenv("CONVERSE_COMPACTION_KEEP_TURNS", "4")


def _talk(
    store: Store,
    provider: Recording,
    count: int,
    summarizer: Summarizer | None = None,
    start: int = 0,
) -> list[TurnOutcome]:
    return [
        converse(
            store,
            person="ana",
            message=f"message {i}: " + "the kitchen tiles are being laid this week " * 3,
            now=T0 + timedelta(minutes=i),
            # the bundle lends English: the durable facts are checked in it
            providers=Providers.of(provider, provider, summarizer=summarizer, lexicon=ENGLISH),
        )
        for i in range(start, start + count)
    ]


def test_history_stays_bounded_however_long_the_conversation(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], small: None
) -> None:
    make_person(store)
    provider = Recording()
    outcomes = _talk(store, provider, 60)
    assert any(o.compacted for o in outcomes)
    sizes = [sum(len(t.content) for t in sent.history) for sent in provider.sent]
    assert max(sizes[30:]) <= 2_000 + 2 * 200  # the threshold, plus the turn that passed it
    last = provider.sent[-1]
    assert "Earlier in this conversation" in last.system.text
    assert "ana said: message" in last.system.text  # the extractive summary, no model


def test_a_compaction_folds_the_previous_summary(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], small: None
) -> None:
    person, _ = make_person(store)
    writer = Writer()
    _talk(store, Recording(), 40, summarizer=writer)
    assert len(writer.requests) >= 2
    first, second = writer.requests[0], writer.requests[1]
    assert first.previous_summary == ""
    assert second.previous_summary.startswith("[] message 0:")
    spoken = [t.content for t in first.turns if t.role is Role.OPERATOR]
    assert len(first.turns) == 2 * len(spoken)  # both sides of every folded exchange
    assert spoken[0].startswith("message 0:") and all("message" in t for t in spoken)
    assert first.prompt_refs[0].family == "compaction/personal_assistant"
    with store.read() as session:
        latest = latest_compaction(session, person.id, None)
    # Every compaction folded the one before: the first exchange survives in the newest.
    nesting = "[" * len(writer.requests) + "] message 0:"
    assert latest is not None and latest.summary.startswith(nesting)


def test_the_summary_becomes_working_memory_and_its_facts_are_held(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], small: None
) -> None:
    person, _ = make_person(store)
    facts = ("You are renovating your kitchen", "You prefer matte tiles", "x", "A fourth one")
    _talk(store, Recording(), 30, summarizer=Writer(facts=facts))
    with store.read() as session:
        memory = readable(working_document(session, person.id), T0 + timedelta(hours=1))
        stored = personal_assertions(session, get_person(session, "ana"))
    assert memory is not None and "message 0:" in memory.summary
    assert sorted((a.content, a.force) for a in stored) == [
        ("You are renovating your kitchen", NormativeForce.HELD),
        ("You prefer matte tiles", NormativeForce.HELD),
    ]  # at most three, never committed, not stored twice by later compactions, and "x" (not
    # addressed to the person) refused by the writing constraints


def test_a_failing_summarizer_loses_no_turn(
    store: Store, make_person: Callable[..., tuple[Person, Engagement]], small: None
) -> None:
    person, _ = make_person(store)
    writer = Writer(fail=True)
    outcomes = _talk(store, Recording(), 25, summarizer=writer)
    assert writer.requests and all(o.compacted is None for o in outcomes)
    with store.read() as session:
        assert latest_compaction(session, person.id, None) is None
    assert len(outcomes) == 25


def test_custom_instructions_come_from_a_file_or_a_setting(
    store: Store,
    make_person: Callable[..., tuple[Person, Engagement]],
    small: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    make_person(store)
    instructions = tmp_path / "COMPACTION.md"
    instructions.write_text("Keep every promise about the kitchen.", encoding="utf-8")
    monkeypatch.setenv("CONVERSE_COMPACTION_INSTRUCTIONS_FILE", str(instructions))
    monkeypatch.setenv("CONVERSE_COMPACTION_VARIANT", "generic")
    writer = Writer()
    _talk(store, Recording(), 20, summarizer=writer)
    assert "Keep every promise about the kitchen." in writer.requests[0].instructions
    assert writer.requests[0].prompt_refs[0].family == "compaction/generic"
    monkeypatch.setenv("CONVERSE_COMPACTION_INSTRUCTIONS_FILE", str(tmp_path / "missing.md"))
    with pytest.raises(InvalidMessage, match="CONVERSE_COMPACTION_INSTRUCTIONS_FILE"):
        _talk(store, Recording(), 20, summarizer=Writer(), start=20)


def test_the_extractive_summary_keeps_what_was_said_newest_first_within_budget() -> None:
    from pipeline.providers.summarize import ExtractiveSummarizer

    turns = tuple(
        HistoryTurn(role=role, content=text)
        for role, text in [
            (Role.OPERATOR, "My car is at the shop until Friday"),
            (Role.COMPANION, "That's a long wait."),
            (Role.OPERATOR, "yes"),
            (Role.OPERATOR, "Lila's school play is on Thursday evening"),
        ]
    )
    request = SummarizeRequest(turns, "- earlier: Ana moved to Porto", "", 1_000, "ana")
    lines = ExtractiveSummarizer().summarize(request).text.splitlines()
    assert lines == [
        "- earlier: Ana moved to Porto",
        "- ana said: My car is at the shop until Friday",
        "- ana said: Lila's school play is on Thursday evening",
    ]
    tight = SummarizeRequest(turns, "- earlier: Ana moved to Porto", "", 26, "ana")
    assert ExtractiveSummarizer().summarize(tight).text.splitlines() == lines[1:]
