"""System-prompt assembly, always in the same order.

persona -> session context (profile and working memory fixed at the session's start, when
there is any) -> summary of the conversation's compacted turns (when there is one) ->
status notes (what the person reported about ongoing things, when there are any) -> engagement
context -> personal memory block -> cross-promotion instruction
(only with a project) -> recalled memory (what an on-demand recall found, when it fired) ->
intent instruction with the operation result. The recalled memory and the instruction are
the per-turn part; everything before them is the stable prefix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipeline.context import EngagementContext
from pipeline.domain import PromptRef, RouteResult
from pipeline.intents.taxonomy import INTENTS
from pipeline.memory.session import SessionContext
from pipeline.prompting import PromptLibrary, Rendered

PART_SEPARATOR = "\n\n"


@dataclass(frozen=True)
class AssembledPrompt:
    """The system prompt, its parts in order, and the templates that made it."""

    parts: tuple[tuple[str, str], ...]
    refs: tuple[PromptRef, ...]

    @property
    def text(self) -> str:
        """The whole system prompt."""
        return PART_SEPARATOR.join(text for _, text in self.parts)

    @property
    def stable_prefix(self) -> str:
        """Everything before the intent instruction: the same across a conversation's turns."""
        return PART_SEPARATOR.join(
            text for family, text in self.parts if not _is_instruction(family)
        )

    @property
    def instruction(self) -> str:
        """The per-turn part: recalled memory, when there is any, and the intent instruction."""
        return PART_SEPARATOR.join(text for family, text in self.parts if _is_instruction(family))


RECALLED_FAMILY = "recalled_memory"


def _is_instruction(family: str) -> bool:
    return family.startswith("instructions/") or family == RECALLED_FAMILY


def instruction_family(route: RouteResult) -> str:
    """Which instruction template serves this route result."""
    if "error" in route.operation_data:
        return "instructions/error"
    if not INTENTS[route.intent].live:
        return "instructions/not_available"
    return f"instructions/{route.intent}"


def assemble_prompt(
    library: PromptLibrary,
    *,
    companion_name: str,
    operator_name: str,
    engagement_context: EngagementContext | None,
    route: RouteResult,
    personal_memory: str = "",
    has_project: bool = False,
    session_context: SessionContext | None = None,
    conversation_summary: str = "",
    status_notes: Sequence[str] = (),
    recalled: Sequence[str] = (),
) -> AssembledPrompt:
    """Render each part and join them in the fixed order; empty parts are left out.

    The persona is rendered the same for every turn; the session context is a part of its own
    after it, so the base is never rewritten. A project turn already carries the personal
    memory block, so its session context leaves the profile out. Status notes are the
    person's, shown in and out of projects: what was reported is never asked for again.
    """
    library = library.pinned()
    rendered: list[Rendered] = [
        library.render("persona", companion_name=companion_name, operator_name=operator_name)
    ]
    if session_context:
        profile = "" if has_project and personal_memory else session_context.profile
        part = library.render(
            "session_context",
            operator_name=operator_name,
            profile=profile,
            working_memory=session_context.working_memory,
            written=session_context.written,
            greet=session_context.greet,
        )
        if part.text.strip():
            rendered.append(part)
    if conversation_summary.strip():
        rendered.append(library.render("conversation_summary", summary=conversation_summary))
    if status_notes:
        rendered.append(
            library.render("status_notes", notes=list(status_notes), operator_name=operator_name)
        )
    if engagement_context is not None:
        rendered.append(
            library.render(
                "engagement_context",
                name=engagement_context.name,
                visibility=engagement_context.visibility.value,
                seed=engagement_context.seed,
                knowledge=engagement_context.knowledge,
                operator_name=operator_name,
            )
        )
    if has_project and personal_memory:
        rendered.append(library.render("personal_memory", block=personal_memory))
    if has_project:
        rendered.append(library.render("cross_promotion"))
    if recalled:
        bullets = [f"- {b}" for b in recalled]
        rendered.append(
            library.render(RECALLED_FAMILY, bullets=bullets, operator_name=operator_name)
        )
    # The first act's instruction, then each later act's ("yes — and I've a bad knee").
    for result in (route, *route.also):
        rendered.append(
            library.render(
                instruction_family(result), intent=result.intent, result=result.operation_data
            )
        )
    return AssembledPrompt(
        parts=tuple((r.ref.family, r.text) for r in rendered),
        refs=tuple(dict.fromkeys(r.ref for r in rendered)),
    )


CLASSIFIER_FAMILY = "classifier"


def classifier_prompt(library: PromptLibrary, *, project_name: str | None) -> Rendered:
    """The classifier's system prompt: the taxonomy is rendered from INTENTS, so it cannot drift."""
    return library.render(
        CLASSIFIER_FAMILY, intents=list(INTENTS.values()), project_name=project_name
    )
