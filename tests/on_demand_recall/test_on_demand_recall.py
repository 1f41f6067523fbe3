"""On-demand recall (pipeline/on_demand_recall.py): an unsure classification looks the message
up once, and what memory holds that the prompt lacks reaches what the responder is sent."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence

import numpy as np
import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from evals.cli import app
from pipeline import on_demand_recall
from pipeline.converse import TurnOutcome, converse
from pipeline.domain import ActorKind, NormativeForce
from pipeline.intents.taxonomy import LOW_CONFIDENCE
from pipeline.memory.embeddings import Vectors, normalized
from pipeline.providers.answers import validated
from pipeline.providers.base import ClassifyRequest, Providers
from pipeline.providers.scripted import ScriptedProvider
from pipeline.reading import ClassifiedIntent
from pipeline.store import Store
from pipeline.store import assertions as repo
from pipeline.store.people import create_person, create_project
from pipeline.store.tables import EventRow

runner = CliRunner()
UNCLEAR = "what was that thing with the ferry again"
FERRY = "Ana booked the ferry to the islands for the 14th of August"


class WordsEmbedder:
    """A deterministic bag-of-words embedder: texts sharing words are similar."""

    model_name = "fake-words-64"
    dim = 64

    def embed(self, texts: Sequence[str]) -> Vectors:
        rows = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                rows[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        return normalized(rows + 1e-6)


class FixedConfidence:
    """A classifier that answers general_conversation with a set confidence."""

    name = "fixed"

    def __init__(self, confidence: float | None) -> None:
        self.confidence = confidence

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        return validated("general_conversation", {}, provider=self.name, confidence=self.confidence)


def _responder() -> ScriptedProvider:
    return ScriptedProvider([])  # replies composed from the operation result


def _seed(store: Store) -> None:
    """ana: a profile fact (in the block) and an event (not in it); bo: a ferry fact."""
    with store.write() as session:
        ana = create_person(session, "ana")
        create_project(session, ana, "Garden", "")
        bo = create_person(session, "bo")
        assert ana.personal_engagement_id and bo.personal_engagement_id
        add = repo.add_assertion
        committed = NormativeForce.COMMITTED
        add(
            session, ana.personal_engagement_id, "Ana is left-handed", ActorKind.OPERATOR, committed
        )
        add(
            session,
            ana.personal_engagement_id,
            FERRY,
            ActorKind.OPERATOR,
            committed,
            category="events",
        )
        add(
            session,
            bo.personal_engagement_id,
            "Bo missed the ferry to the islands in August",
            ActorKind.OPERATOR,
            committed,
            category="events",
        )


def _turn(
    store: Store,
    message: str,
    confidence: float | None = 0.1,
    person: str = "ana",
    project: str | None = None,
) -> TurnOutcome:
    return converse(
        store,
        person=person,
        project=project,
        message=message,
        providers=Providers.of(FixedConfidence(confidence), _responder(), embedder=WordsEmbedder()),
    )


def _recall_events(store: Store) -> list[EventRow]:
    with store.read() as session:
        return list(
            session.scalars(select(EventRow).where(EventRow.op == "recall").order_by(EventRow.id))
        )


def test_an_unsure_turn_puts_what_memory_holds_before_the_responder(store: Store) -> None:
    _seed(store)
    outcome = _turn(store, UNCLEAR)
    families = [family for family, _ in outcome.prompt.parts]
    assert "recalled_memory" in families
    assert FERRY in outcome.prompt.text  # what the responder is sent
    assert FERRY in outcome.prompt.instruction  # per turn, outside the cached prefix
    assert "Bo missed" not in outcome.prompt.text
    assert outcome.recalled is not None and outcome.recalled.status == "ok"
    (event,) = _recall_events(store)
    assert event.node == "hotpath" and event.status == "ok"
    assert event.latency_ms is not None and event.latency_ms >= 0
    assert event.memory_id == outcome.recalled.ids[0]
    meta = outcome.companion_turn.meta or {}
    assert meta["recall"]["ids"] == list(outcome.recalled.ids)
    assert FERRY not in json.dumps(meta)  # ids, never text


def test_a_sure_turn_does_not_look_anything_up(store: Store) -> None:
    _seed(store)
    for confidence in (LOW_CONFIDENCE, 0.9, None):
        outcome = _turn(store, UNCLEAR, confidence=confidence)
        assert outcome.recalled is None
        assert "recalled_memory" not in [f for f, _ in outcome.prompt.parts]
    assert _recall_events(store) == []


def test_the_setting_turns_it_off(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    _seed(store)
    monkeypatch.setenv("CONVERSE_ON_DEMAND_RECALL", "false")
    assert _turn(store, UNCLEAR).recalled is None
    assert _recall_events(store) == []


def test_what_the_prompt_already_shows_is_not_repeated(store: Store) -> None:
    _seed(store)
    # A project turn shows the profile fact in the personal memory block.
    outcome = _turn(store, "left-handed Ana", project="Garden")
    assert outcome.recalled is not None
    assert all("left-handed" not in b for b in outcome.recalled.bullets)
    assert outcome.prompt.text.count("Ana is left-handed") == 1


def test_recall_runs_at_most_once_a_turn(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    _seed(store)
    calls: list[str] = []
    real = on_demand_recall.memory_query

    def counted(session, request, embedder=None, *, now=None):  # type: ignore[no-untyped-def]
        calls.append(request.query)
        return real(session, request, embedder, now=now)

    monkeypatch.setattr(on_demand_recall, "memory_query", counted)
    messages = [UNCLEAR, "hmm", "the islands?", "ok"]
    for message in messages:
        _turn(store, message)
    assert calls == messages
    assert len(_recall_events(store)) == len(messages)


def test_recall_never_reads_another_persons_memory(store: Store) -> None:
    _seed(store)
    outcome = _turn(store, "Bo missed the ferry", person="bo")
    assert outcome.recalled is not None
    assert all(b.startswith("[events] Bo") for b in outcome.recalled.bullets)
    assert FERRY not in outcome.prompt.text
    # ana's unsure turn about Bo's words finds only her own ferry fact
    mine = _turn(store, "Bo missed the ferry")
    assert mine.recalled is not None
    assert "Bo missed" not in mine.prompt.text
    assert all("Bo missed" not in b for b in mine.recalled.bullets)


def test_stats_show_the_firing_rate_and_latency(store: Store, db_url: str) -> None:
    _seed(store)
    _turn(store, UNCLEAR)
    _turn(store, "I like this", confidence=0.9)
    _turn(store, "tell me more", confidence=0.9)
    _turn(store, "nothing in memory matches zzz qqq", confidence=0.1)
    result = runner.invoke(app, ["stats", "--json", "--db-url", db_url])
    assert result.exit_code == 0, result.output
    recall = json.loads(result.stdout)["recall"]
    assert recall["classified_turns"] == 4 and recall["fired"] == 2
    assert recall["rate"] == 0.5 and recall["found"] == 1
    assert recall["median_ms"] is not None and recall["p95_ms"] >= recall["median_ms"]
    shown = runner.invoke(app, ["stats", "--db-url", db_url])
    assert "On-demand recall: 2 of 4 classified turns (50.0%), 1 found something" in shown.output
