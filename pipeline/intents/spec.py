"""An intent, declared in one place: `IntentSpec`, in the module that handles it.

Each intent's module ends with `SPECS`, the specs it declares: the intent's name, whether it
is live, its parameters, what the classifier prompt says of it, whether it needs a project,
how the companion offers it, its handler, its outcome model, which of its actions leave
something pending and, for an intent declared since the release, its offline reply, its new
parameters' help and a few example messages. pipeline/intents/taxonomy.py collects them; the
router, the answer schema, the classifier prompt, the offline replies, the local provider's
examples and the reading of the previous turn read them from there (docs/intents.md, "Adding
an intent").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from pipeline.actions import Action
from pipeline.domain import RouteResult
from pipeline.intents.context import HandlerContext
from pipeline.intents.outcome import Outcome

Handler = Callable[[HandlerContext], RouteResult]
# The offline reply to a turn of the intent, written from its route result.
Reply = Callable[[RouteResult], str]


class IntentSpecError(ValueError):
    """A spec that contradicts itself (raised when its module is imported)."""


@dataclass(frozen=True)
class IntentSpec:
    """One intent: its name, whether it is live, its parameters and what it is for."""

    name: str
    live: bool
    params: tuple[str, ...]
    summary: str
    needs_project: bool = False
    # How the companion describes the capability to the person ("" = not worth listing).
    offer: str = ""
    # The actions of this intent's turns that leave something pending (an offer, a question):
    # a reading that answers one is handled by this intent, whatever the message was given.
    pending: tuple[Action, ...] = ()
    # What decides a turn of this intent, and the outcome model it records (live intents).
    handler: Handler | None = None
    outcome: type[Outcome] | None = None
    # Parameters the handler cannot do without: a classification missing one is unusable.
    required: tuple[str, ...] = ()
    # The parameter naming what the message is about: when the router re-reads a message as
    # another intent (it answers what that intent left pending), the text carries over in it.
    subject: str = ""
    # Its handler stores or drops something: a reading that asks to put something back
    # restores instead (pipeline/intents/restore.py).
    writes: bool = False
    # The reply the offline responders (local, scripted) give for a turn of this intent. The
    # released intents' replies are written in pipeline/providers/replies.py, which reads this
    # first; an intent declared since gives its own here.
    reply: Reply | None = None
    # Help for each parameter the answer schema does not describe yet (parameter -> help);
    # pipeline/providers/intent_schema.py reads it after its released PARAM_HELP.
    param_help: Mapping[str, str] = field(default_factory=dict, hash=False)
    # A few messages of this intent, written apart from every suite message: the local
    # provider adds them to its examples file's when the file has none of this intent's, and
    # classifier templates v5 and v6 (v6 is active) list them when they hard-code none of
    # their own.
    examples: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        problems = self.problems()
        if problems:
            raise IntentSpecError(f"intent {self.name!r}: " + "; ".join(problems))

    def problems(self) -> list[str]:
        """What contradicts itself in the spec (empty when nothing does)."""
        found: list[str] = []
        if self.live and (self.handler is None or self.outcome is None):
            found.append("a live intent declares its handler and its outcome model")
        outcome = self.outcome
        if outcome is not None and outcome.INTENT and self.name != outcome.INTENT:
            found.append(f"its outcome model {outcome.__name__} is {outcome.INTENT!r}'s")
        actions = outcome.ACTIONS if outcome is not None else frozenset()
        stray = [a.value for a in self.pending if a not in actions]
        if stray:
            found.append(f"pending actions {stray} are not among its outcome's ACTIONS")
        unknown = [p for p in (*self.required, self.subject) if p and p not in self.params]
        if unknown:
            found.append(f"parameters {unknown} (required, subject) are not among its params")
        helped = [p for p in self.param_help if p not in self.params]
        if helped:
            found.append(f"param_help names {helped}, which are not among its params")
        if any(not m.strip() for m in self.examples):
            found.append("its examples must be non-empty messages")
        return found

    @property
    def instruction(self) -> str:
        """The prompt family that tells the responder what the handler did."""
        return f"instructions/{self.name}" if self.live else "instructions/not_available"


# Every declared intent by name, in taxonomy order: filled once by pipeline/intents/taxonomy.py
# (which collects the modules' SPECS); a handler reads it here so that no intent module
# imports the module that collects it.
INTENTS: dict[str, IntentSpec] = {}
