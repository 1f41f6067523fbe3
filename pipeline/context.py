"""The engagement context loader: an engagement's name, seed and settled knowledge."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from pipeline.domain import PERSONAL_SEED, Engagement, Visibility
from pipeline.store import assertions as repo

KNOWLEDGE_LINES = 30


@dataclass(frozen=True)
class EngagementContext:
    """What the prompt says about the engagement a turn happens in."""

    name: str
    visibility: Visibility
    seed: str
    knowledge: str
    # The notes `knowledge` shows (a turn marks them used), and when each was last marked.
    shown: tuple[int, ...] = ()
    marked_at: tuple[datetime | None, ...] = ()

    def unmarked(self, since: datetime) -> list[int]:
        """The shown notes not marked used since `since`."""
        return [i for i, at in zip(self.shown, self.marked_at, strict=True) if not at or at < since]


def engagement_seed(engagement: Engagement) -> str:
    """The engagement's seed text; a personal engagement always has its known seed."""
    if engagement.visibility is Visibility.PERSONAL and not engagement.seed.strip():
        return PERSONAL_SEED
    return engagement.seed


def load_engagement_context(
    session: Session | Connection, engagement: Engagement
) -> EngagementContext:
    """Load any engagement, personal or project, through the same path."""
    knowledge = ""
    committed = []
    if engagement.visibility is Visibility.PROJECT:
        committed = repo.committed_newest(session, engagement.id, KNOWLEDGE_LINES)
        knowledge = "\n".join(f"#{a.display_number}: {a.content}" for a in reversed(committed))
    return EngagementContext(
        name=engagement.name,
        visibility=engagement.visibility,
        seed=engagement_seed(engagement),
        knowledge=knowledge,
        shown=tuple(a.id for a in committed),
        marked_at=tuple(a.last_accessed_at for a in committed),
    )
