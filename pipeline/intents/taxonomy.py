"""The intent taxonomy: nine live intents and four stubs, with their parameters.

docs/intents.md explains each one and the boundaries between them.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.actions import Action


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

    @property
    def instruction(self) -> str:
        """The prompt family that tells the responder what the handler did."""
        return f"instructions/{self.name}" if self.live else "instructions/not_available"


INTENTS: dict[str, IntentSpec] = {
    spec.name: spec
    for spec in (
        IntentSpec(
            "general_conversation",
            True,
            (),
            "chat, questions and advice that ask nothing of memory; declining an offer; "
            "an outright rejection such as 'never mind'",
            offer="chat, answer questions and think things through with you",
        ),
        IntentSpec(
            "add_knowledge",
            True,
            ("knowledge",),
            "a fact about the project's domain to record in the project",
            needs_project=True,
            offer="keep notes for a project when you tell me something about it",
        ),
        IntentSpec(
            "ask_about_past_input",
            True,
            ("query",),
            "a question about what the person told the companion before",
            offer="tell you what you've told me before, about you or about a project",
        ),
        IntentSpec(
            "list_knowledge",
            True,
            (),
            "show everything recorded for the project",
            needs_project=True,
            offer="show you a project's notes",
        ),
        IntentSpec(
            "commit_knowledge",
            True,
            ("knowledge_reference",),
            "settle held project knowledge ('lock in #3', 'mark all of those as final')",
            needs_project=True,
            offer="lock in a project note once you're sure of it",
        ),
        IntentSpec(
            "retract_knowledge",
            True,
            ("knowledge_description",),
            "remove a fact from the project's knowledge",
            needs_project=True,
            offer="remove a project note when you ask (it can be put back)",
            pending=(Action.CONFIRM_RETRACTION, Action.AMBIGUOUS),
        ),
        IntentSpec(
            "describe_capabilities",
            True,
            (),
            "asks what the companion can do",
        ),
        IntentSpec(
            "remember_about_me",
            True,
            ("personal_fact",),
            "a fact about the person (preferences, identity, schedule, diet, health, "
            "location, working style, family) to remember across all projects",
            offer=(
                "remember things about you — your diet, schedule, family, preferences — "
                "across all your projects, after checking I got them right"
            ),
            pending=(Action.HELD, Action.REFINED, Action.HELD_MANY),
        ),
        IntentSpec(
            "forget_about_me",
            True,
            ("forget_description",),
            "asks the companion to stop remembering something personal",
            offer="forget something personal you told me, once you confirm which one",
            pending=(Action.CONFIRM_RETRACTION, Action.AMBIGUOUS),
        ),
        IntentSpec("set_reminder", False, ("reminder", "when"), "set a reminder"),
        IntentSpec("web_search", False, ("query",), "look something up on the web"),
        IntentSpec("share_project", False, ("recipient",), "share a project with someone"),
        IntentSpec("export_project", False, ("format",), "export a project's notes to a file"),
    )
}

LIVE_INTENTS = tuple(name for name, spec in INTENTS.items() if spec.live)
STUB_INTENTS = tuple(name for name, spec in INTENTS.items() if not spec.live)
FALLBACK_INTENT = "general_conversation"
# A classification less sure than this is low-confidence: the local classifier answers
# FALLBACK_INTENT below it (docs/local-model.md, "Confidence"), and the turn then looks its
# message up in memory once (on-demand recall, pipeline/on_demand_recall.py).
LOW_CONFIDENCE = 0.30

# Parameters a handler cannot do without; a classification missing one is unusable.
REQUIRED_PARAMS: dict[str, tuple[str, ...]] = {
    "add_knowledge": ("knowledge",),
    "retract_knowledge": ("knowledge_description",),
}
