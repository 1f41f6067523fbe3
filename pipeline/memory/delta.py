"""The memory delta header: what changed in personal memory since the revision a conversation
last saw, at most 3 bullets, put before the personal memory block (docs/memory.md, "Memory
delta"). The conversation's last-seen revision is in its checkpoint (pipeline/checkpoint.py);
the revisions and the change log are pipeline/store/changes.py's.

Only what the conversation may see is named: a fact that is committed, live and in a category
that reaches conversation is shown with its text; one that was retracted, set aside or erased
is shown as removed, without its text, so nothing forgotten comes back through the header.
Held offers (not yet memory) are left out.
"""

from __future__ import annotations

from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.categories import ContextMode, load_categories
from pipeline.store.changes import Change, changes_since, current_revision

MAX_BULLETS = 3
# Changes read to find 3 bullets: several changes to one fact, and held offers, are skipped.
_LOOK_BACK = 20
_MAX_TEXT = 160
_SHOWN = {
    "created": "+added",
    "committed": "+added",
    "updated": "↑updated",
    "restored": "↺restored",
}
_REMOVED = frozenset({"retracted", "soft_deleted", "deleted"})
REMOVED_LINE = "−removed: a memory was forgotten or set aside; do not rely on it"


def _bullet(change: Change) -> str | None:
    if change.event in _REMOVED:
        return REMOVED_LINE
    label = _SHOWN.get(change.event)
    visible = (
        change.content is not None
        and change.force == "committed"
        and not change.deleted
        and change.category is not None
        and load_categories().mode(change.category) is not ContextMode.NONE
    )
    if label is None or not visible or change.content is None:
        return None
    text = change.content if len(change.content) <= _MAX_TEXT else change.content[:_MAX_TEXT] + "…"
    return f"{label}: [{change.category}] {text}"


def delta_header(
    session: Session | Connection, engagement_id: int, seen: int, revision: int | None = None
) -> tuple[str, int]:
    """(the header, the current revision); the header is "" when nothing the conversation
    may see changed since `seen`. Costs one query when nothing changed, none when the caller
    read the current `revision` already."""
    if revision is None:
        revision = current_revision(session, engagement_id)
    if revision <= seen:
        return "", revision
    bullets: list[str] = []
    shown: set[int] = set()
    for change in changes_since(session, engagement_id, seen, _LOOK_BACK):
        if change.assertion_id in shown:
            continue  # its newest change says it
        shown.add(change.assertion_id)
        bullet = _bullet(change)
        if bullet is not None and bullet not in bullets:
            bullets.append(bullet)
        if len(bullets) == MAX_BULLETS:
            break
    if not bullets:
        return "", revision
    return f"Memory updates since rev {seen}:\n" + "\n".join(f"- {b}" for b in bullets), revision


def with_delta(
    session: Session | Connection,
    engagement_id: int,
    seen: int,
    block: str,
    revision: int | None = None,
) -> str:
    """The memory context: the delta header (if any) first, then the block."""
    header, _ = delta_header(session, engagement_id, seen, revision)
    return "\n\n".join(part for part in (header, block) if part)
