"""Who made a write, in words a person understands, the same in every listing.

The stored actors are the pipeline's: a fact the person states is added by the companion (it
offers to keep it) and a project note by the operator (the person, in chat). Shown raw, the
person's own words read as "by companion" in one table and "by operator" in the next.
"""

from __future__ import annotations

_WHO = {
    "operator": "you, in chat",
    "companion": "companion, from your words",
    "cli": "you, at the command line",
    "system": "background job",
}


def who(actor: str) -> str:
    """The words for a stored actor (an ActorKind or HistoryActor value)."""
    return _WHO.get(actor, actor)
