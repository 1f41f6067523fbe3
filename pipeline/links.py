"""Which assertions a turn carried, read from what its handler did, so that erasing an
assertion blanks exactly the turns that stated, restated, refined, confirmed or matched it."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from pipeline.actions import Action
from pipeline.domain import HistoryTurn, RouteResult
from pipeline.intents.taxonomy import INTENTS
from pipeline.store.assertions import ids_by_number

# A personal fact held on the turn after a project fact was stated came from the
# cross-promotion offer: the turns before it stated that fact first.
_OFFERED_ACROSS = "add_knowledge"


def _numbers(data: dict[str, Any]) -> tuple[set[int], set[tuple[str, int]]]:
    """Display numbers the data names, and those of items that say where they live
    (recall lists personal facts and project notes together)."""
    found: set[int] = set()
    placed: set[tuple[str, int]] = set()
    number = data.get("assertion_display_number")
    if isinstance(number, int):
        found.add(number)
    items = [*(data.get("items") or []), *(data.get("candidates") or [])]
    if isinstance(data.get("item"), dict):
        items.append(data["item"])
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("display_number"), int):
            continue
        if item.get("where") in ("personal", "project"):
            placed.add((str(item["where"]), item["display_number"]))
        else:
            found.add(item["display_number"])
    return found, placed


def carried_assertions(
    session: Session, result: RouteResult, personal_id: int | None, project_id: int | None
) -> set[int]:
    """Ids of the assertions whose text this turn's operation data or changes carry."""
    data = result.operation_data
    pairs = {(c.engagement_id, c.display_number) for c in result.changes}
    spec = INTENTS.get(result.intent)
    in_project = (spec is not None and spec.needs_project) or data.get("scope") == "project"
    engagement = project_id if in_project else personal_id
    numbers, placed = _numbers(data)
    if engagement is not None:
        pairs.update((engagement, n) for n in numbers)
    where = {"personal": personal_id, "project": project_id}
    pairs.update((e, n) for place, n in placed if (e := where[place]) is not None)
    found = ids_by_number(session, pairs) if pairs else set()
    matched = data.get("matched_assertion_id")
    if isinstance(matched, int):
        found.add(matched)
    return found


def stated_before(result: RouteResult, prior_companion: HistoryTurn | None) -> bool:
    """Whether the previous two turns stated the personal fact this turn holds."""
    return (
        result.intent == "remember_about_me"
        and result.operation_data.get("action") in (Action.HELD, Action.COMMITTED)
        and any(c.before is None for c in result.changes)
        and prior_companion is not None
        and prior_companion.intent == _OFFERED_ACROSS
    )
