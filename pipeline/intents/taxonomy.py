"""The intent taxonomy: every intent its module declares, collected in one table.

An intent is declared once, as an `IntentSpec` in the `SPECS` of the module that handles it
(pipeline/intents/spec.py); this module finds those modules, collects their specs into
`INTENTS` and reads the previous turn's typed outcome through them. docs/intents.md explains
each intent, the boundaries between them, and the steps of adding one.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from pipeline.domain import HistoryTurn
from pipeline.intents.outcome import Outcome
from pipeline.intents.spec import INTENTS, IntentSpec, IntentSpecError

__all__ = [
    "FALLBACK_INTENT",
    "INTENTS",
    "LIVE_INTENTS",
    "LOW_CONFIDENCE",
    "REQUIRED_PARAMS",
    "STUB_INTENTS",
    "IntentSpec",
    "declared_in",
    "leaves_pending",
    "outcome_of",
    "pending_outcome",
]

# The order the released classifier prompts and answer schemas list the intents in; an
# intent declared since follows them, by module name (placing it among them changes the
# prompt, so it takes a new classifier template version).
RELEASED_ORDER = (
    "general_conversation",
    "add_knowledge",
    "ask_about_past_input",
    "list_knowledge",
    "commit_knowledge",
    "retract_knowledge",
    "describe_capabilities",
    "remember_about_me",
    "forget_about_me",
    "set_reminder",
    "web_search",
    "share_project",
    "export_project",
)
# What marks a module that declares intents; a module without it is never imported here, so
# the router and the acts, which read this table, are not imported by it.
_DECLARES = "\nSPECS = ("


def declared_in(package: Path, prefix: str) -> list[IntentSpec]:
    """The specs the modules of `package` declare (module `prefix` + name), by module name."""
    specs: list[IntentSpec] = []
    for path in sorted(package.glob("*.py")):
        if _DECLARES not in path.read_text(encoding="utf-8"):
            continue
        module = importlib.import_module(f"{prefix}{path.stem}")
        specs.extend(getattr(module, "SPECS", ()))
    return specs


def _collected(specs: list[IntentSpec]) -> dict[str, IntentSpec]:
    found: dict[str, IntentSpec] = {}
    for spec in specs:
        if spec.name in found:
            raise IntentSpecError(f"intent {spec.name!r} is declared twice; keep one spec")
        found[spec.name] = spec
    rank = {name: n for n, name in enumerate(RELEASED_ORDER)}
    return dict(sorted(found.items(), key=lambda kv: rank.get(kv[0], len(rank))))


INTENTS.update(_collected(declared_in(Path(__file__).parent, "pipeline.intents.")))

LIVE_INTENTS = tuple(name for name, spec in INTENTS.items() if spec.live)
STUB_INTENTS = tuple(name for name, spec in INTENTS.items() if not spec.live)
FALLBACK_INTENT = "general_conversation"
# A classification less sure than this is low-confidence: the local classifier answers
# FALLBACK_INTENT below it (docs/local-model.md, "Confidence"), and the turn then looks its
# message up in memory once (on-demand recall, pipeline/on_demand_recall.py).
LOW_CONFIDENCE = 0.30

# Parameters a handler cannot do without; a classification missing one is unusable.
REQUIRED_PARAMS: dict[str, tuple[str, ...]] = {
    name: spec.required for name, spec in INTENTS.items() if spec.required
}


def outcome_of(turn: HistoryTurn | None) -> Outcome | None:
    """A companion turn's typed outcome, read through its intent's model; None for a turn of
    no known intent or operation data its model does not read (an error, an erased turn)."""
    spec = INTENTS.get(turn.intent or "") if turn is not None else None
    if turn is None or spec is None or spec.outcome is None:
        return None
    return spec.outcome.read(turn.operation_data)


def pending_outcome(turn: HistoryTurn | None) -> Outcome | None:
    """The turn's typed outcome when it left something pending (an action its intent declares
    `pending`), else None. The stored action is compared first, so a turn that left nothing
    pending (most of them) is never parsed."""
    spec = INTENTS.get(turn.intent or "") if turn is not None else None
    if turn is None or spec is None or turn.operation_data.get("action") not in spec.pending:
        return None
    return outcome_of(turn)


def leaves_pending(turn: HistoryTurn | None) -> bool:
    """Whether the turn left something pending: an action its intent declares `pending`."""
    return pending_outcome(turn) is not None
