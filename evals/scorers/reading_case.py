"""A case's reading verdicts (evals/scorers/reading.py, per message with a gold reading) and,
for a failed case, whether the reading or the decision failed.

A failed case failed on its reading when some gold field mismatched on a message up to the
first turn whose expectation failed; on its decision when every message up to that turn has a
gold reading and every field matched; and is `unknown` when neither can be said (a message up
to that turn has no gold reading). A case replayed with gold readings (`--reading gold`) can
only fail on its decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evals.dataset.conversation import ConversationCase, MessageTurn
from evals.dataset.models import ClassifyCase
from evals.scorers.reading import acts_of, message_verdicts

READING, DECISION, UNKNOWN = "reading", "decision", "unknown"


def _scored(turn: int, reading: Sequence[Any], record: Mapping[str, Any]) -> dict[str, Any]:
    fields, why = message_verdicts([a.to_act() for a in reading], acts_of(record))
    return {"turn": turn, "fields": fields, **({"why": why} if why else {})}


def case_reading(case: object, got: Mapping[str, Any]) -> list[dict[str, Any]] | None:
    """Per message with a gold reading that ran: its turn, each scored field's verdict and
    what differed. None when the case has no gold reading at all."""
    if isinstance(case, ClassifyCase):
        if case.reading is None or not got.get("intent"):
            return None
        return [_scored(1, case.reading, got)]
    if not isinstance(case, ConversationCase):
        return None
    golds = {
        i: t.reading
        for i, t in enumerate(case.turns, start=1)
        if isinstance(t, MessageTurn) and t.reading is not None
    }
    if not golds:
        return None
    out = []
    for record in got.get("turns") or []:
        turn = int(record.get("turn", 0))
        if turn in golds and "message" in record and ("acts" in record or "intent" in record):
            out.append(_scored(turn, golds[turn], record))
    return out


def _message_turns(case: object, upto: int) -> list[int]:
    if isinstance(case, ConversationCase):
        return [i for i, t in enumerate(case.turns[:upto], start=1) if isinstance(t, MessageTurn)]
    return [1]


def failed_by(
    case: object, checks: Sequence[Mapping[str, Any]], reading: Sequence[Mapping[str, Any]]
) -> str:
    """For a failed case: "reading", "decision" or "unknown" (see the module's docstring)."""
    failed = [c for c in checks if not c.get("pass")]
    first = min((int(c.get("turn") or 1) for c in failed), default=1)
    verdicts = {int(r["turn"]): r["fields"] for r in reading if int(r["turn"]) <= first}
    if any(not ok for fields in verdicts.values() for ok in fields.values()):
        return READING
    if all(turn in verdicts for turn in _message_turns(case, first)):
        return DECISION
    return UNKNOWN
