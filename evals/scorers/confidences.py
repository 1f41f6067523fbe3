"""The classifier's confidence on each message an answer read, for the report's calibration
(evals/report/calibration.py). A target's spec names which of these reads its answers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def one_message(got: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A classify answer: its one message (turn 1), when it was read."""
    return [{"turn": 1, "confidence": got.get("confidence")}] if got.get("intent") else []


def message_turns(got: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A transcript: each message turn the classifier read."""
    return [
        {"turn": int(record.get("turn", 0)), "confidence": record.get("confidence")}
        for record in got.get("turns") or []
        if "message" in record and ("acts" in record or "intent" in record)
    ]
