"""`converse eval --reading gold`: every classify and conversation case replayed with its gold
readings through the core (docs/evals.md, "Gold readings").

The classifier answers each message with the acts the suite's gold reading names; the replies
are the local template responder's. The bundle is built here, per case, and never registered:
it is a way of running the suites, not a provider anyone could chat with. Only the reading is
replaced: like the local provider, it lends the embedded MiniLM model to the core's semantic
forget and recall (loaded once a process), and the English lexicon the suites are written in.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from evals.dataset.conversation import ConversationCase, MessageTurn
from evals.dataset.models import ClassifyCase
from evals.dataset.reading import GoldAct
from evals.targets import TARGET_SPECS
from pipeline.english import ENGLISH
from pipeline.providers import ClassifyRequest, Providers, degraded
from pipeline.providers.local import LocalResponder, MiniLMEmbedder
from pipeline.reading import Act, ClassifiedIntent

if TYPE_CHECKING:
    from evals.runner.engine import WorkItem
    from evals.runner.providers import Bound

GOLD = "gold"
GOLD_MODEL = "suite"
GOLD_LABEL = "gold readings (from the suite, not a model), local template replies"
# What --reading takes: each provider's own reading, or the suites' gold readings.
READINGS = ("provider", GOLD)
# The targets whose cases carry gold readings (read from their case models); a gold run
# leaves every other target out.
GOLD_TARGETS = frozenset(
    name
    for name, spec in TARGET_SPECS.items()
    if spec.case_model in (ClassifyCase, ConversationCase)
)


def _key(message: str) -> str:
    return " ".join(message.casefold().split())


class GoldClassifier:
    """Answers a case's messages, in order, with their gold readings."""

    name = GOLD
    model = GOLD_MODEL

    def __init__(self, readings: Sequence[tuple[str, tuple[Act, ...]]]) -> None:
        self._readings = list(readings)
        self._next = 0
        self._lock = threading.Lock()

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """The next message's gold reading; an error when the messages are out of step with
        the readings (a message the case does not have, or one too many)."""
        with self._lock:
            at = self._next
            self._next += 1
        if at >= len(self._readings):
            return degraded(
                f"no gold reading for message {at + 1} ({request.message!r})",
                provider=GOLD,
                model=GOLD_MODEL,
            )
        message, acts = self._readings[at]
        if _key(message) != _key(request.message):
            return degraded(
                f"gold reading {at + 1} is for {message!r}, not {request.message!r}",
                provider=GOLD,
                model=GOLD_MODEL,
            )
        # given acts and no intent, the first act's fields are the classification's
        return ClassifiedIntent.model_validate(
            {"acts": acts, "confidence": 1.0, "provider": GOLD, "model": GOLD_MODEL}
        )


def _acts(reading: Sequence[GoldAct]) -> tuple[Act, ...]:
    return tuple(act.to_act() for act in reading)


def case_readings(case: object) -> list[tuple[str, tuple[Act, ...]]] | None:
    """(message, acts) for each message of the case, in order; None when some message has no
    gold reading (or the case's target has none)."""
    if isinstance(case, ClassifyCase):
        return None if case.reading is None else [(case.message, _acts(case.reading))]
    if isinstance(case, ConversationCase):
        found = []
        for turn in case.turns:
            if isinstance(turn, MessageTurn):
                if turn.reading is None:
                    return None
                found.append((turn.message, _acts(turn.reading)))
        return found
    return None


def not_runnable(case: object) -> str | None:
    """Why the case cannot be replayed with gold readings (None when it can)."""
    if isinstance(case, ClassifyCase):
        return "the message has no gold reading" if case.reading is None else None
    if isinstance(case, ConversationCase):
        missing = [
            str(i)
            for i, turn in enumerate(case.turns, start=1)
            if isinstance(turn, MessageTurn) and turn.reading is None
        ]
        if not missing:
            return None
        one = len(missing) == 1
        verb = "has" if one else "have"
        return f"turn{'' if one else 's'} {', '.join(missing)} {verb} no gold reading"
    return "its target has no readings"


_FINGERPRINT: list[str] = []


def gold_fingerprint() -> str:
    """The gold classifier's and the template responder's code (the answer cache keys on it)."""
    if not _FINGERPRINT:
        # a bundle left to fingerprint itself hashes both roles' code (Providers)
        _FINGERPRINT.append(Providers(GoldClassifier([]), LocalResponder(), GOLD_LABEL).fingerprint)
    return _FINGERPRINT[0]


_EMBEDDER: list[MiniLMEmbedder] = []
_EMBEDDER_LOCK = threading.Lock()


def _embedder() -> MiniLMEmbedder:
    """The local provider's embedding model, one a process (it loads in about a second)."""
    with _EMBEDDER_LOCK:
        if not _EMBEDDER:
            _EMBEDDER.append(MiniLMEmbedder())
        return _EMBEDDER[0]


def gold_providers(readings: Sequence[tuple[str, tuple[Act, ...]]]) -> Providers:
    """The bundle one case runs on: its gold readings, the local template responder, and the
    local provider's embedding model for the core's semantic forget and recall."""
    embedder = _embedder()
    return Providers(
        GoldClassifier(readings),
        LocalResponder(),
        GOLD_LABEL,
        model=GOLD_MODEL,
        embedder=embedder,
        fingerprint=f"{gold_fingerprint()}+{embedder.embedder_id}",
        lexicon=ENGLISH,  # the suites are English conversations, as the scripted fixtures are
    )


def gold_bound(bound: Bound, case: object) -> Bound:
    """`bound` (the run's gold entry) with the case's own gold classifier."""
    readings = case_readings(case)
    if readings is None:
        raise ValueError(f"case {getattr(case, 'id', '?')} has no gold reading to replay")
    providers = gold_providers(readings)
    return replace(
        bound,
        classifier=providers.classifier,
        responder=providers.responder,
        providers=providers,
    )


def split_runnable(items: Sequence[WorkItem]) -> tuple[list[WorkItem], list[dict[str, str]]]:
    """The items a gold run can replay, and each case it cannot (suite, case id, reason),
    once per case: those are counted apart, never passed."""
    runnable: list[WorkItem] = []
    left_out: dict[tuple[str, str], dict[str, str]] = {}
    for item in items:
        why = not_runnable(item.case)
        if why is None:
            runnable.append(item)
        else:
            key = (item.suite.name, item.case.id)
            left_out.setdefault(key, {"suite": key[0], "case_id": key[1], "reason": why})
    return runnable, list(left_out.values())
