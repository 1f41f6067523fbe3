"""One turn's typed state: what it was asked to do (TurnInput), then what each phase of
pipeline/turn_phases.py added (TurnState)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pipeline.assemble import AssembledPrompt
from pipeline.checkpoint import ConversationState
from pipeline.compaction import Compacted
from pipeline.domain import (
    Engagement,
    HistoryTurn,
    MemoryNote,
    Person,
    Reply,
    Role,
    RouteResult,
    Turn,
)
from pipeline.extraction.trigger import TurnExtraction
from pipeline.intents import HandlerContext
from pipeline.on_demand_recall import Recalled
from pipeline.prompting import PromptLibrary
from pipeline.providers.base import Providers
from pipeline.reading import ClassifiedIntent
from pipeline.settings import Settings
from pipeline.store import Store
from pipeline.store.status import StatusNote
from pipeline.tools import Toolbox
from pipeline.turn_load import Loaded


@dataclass(frozen=True)
class TurnInput:
    """What a turn is asked to do: who says what, where, with which providers and prompts."""

    store: Store
    person: Person
    project: Engagement | None
    text: str
    providers: Providers
    library: PromptLibrary
    settings: Settings
    channel: str
    companion_name: str
    moment: datetime
    answers: tuple[int, ...]
    started: float


@dataclass(frozen=True)
class TurnState:
    """The turn so far: its input, then each phase's part (None until that phase has run)."""

    given: TurnInput
    loaded: Loaded | None = None
    shown: tuple[MemoryNote, ...] = ()
    classified: ClassifiedIntent | None = None
    extraction: TurnExtraction | None = None
    decision: HandlerContext | None = None
    result: RouteResult | None = None
    recalled: Recalled | None = None
    prompt: AssembledPrompt | None = None
    tools: Toolbox | None = None
    reply: Reply | None = None
    reply_error: str | None = None
    stored: RouteResult | None = None
    turns: tuple[Turn, Turn] | None = None
    notes: tuple[StatusNote, ...] = ()
    checkpoint: ConversationState | None = None
    compacted: Compacted | None = None

    @property
    def ready(self) -> Loaded:
        """What `load` read (every later phase needs it)."""
        assert self.loaded is not None, "load runs first"
        return self.loaded

    @property
    def reading(self) -> ClassifiedIntent:
        """What `read` classified."""
        assert self.classified is not None, "read runs before this phase"
        return self.classified

    @property
    def replied(self) -> Reply:
        """What `respond` answered."""
        assert self.reply is not None, "respond runs before this phase"
        return self.reply

    @property
    def engagement_id(self) -> int | None:
        """The turn's project, if any."""
        project = self.ready.project
        return project.id if project is not None else None

    @property
    def prior_companion(self) -> HistoryTurn | None:
        """The companion turn right before this message, if the history ends with one."""
        history = self.ready.history
        prior = history[-1] if history else None
        return prior if prior is not None and prior.role is Role.COMPANION else None
