"""The local responder: deterministic replies built from the operation result — not an LLM."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.actions import Action
from pipeline.domain import Reply, RouteResult
from pipeline.english.extract import to_second_person
from pipeline.english.notes import ASKS_PAST, CLAUSE_BREAK, FIRST_PERSON, PERSONAL_NOTE
from pipeline.english.shorthand import read_shorthand
from pipeline.english.spelling import spelled
from pipeline.providers.base import RespondRequest
from pipeline.providers.local.words import vocabulary
from pipeline.providers.replies import as_clause, compose_reply

if TYPE_CHECKING:
    from pipeline.tools import Toolbox

NAME = "local"
MODEL = "template replies (not an LLM)"


def personal_clause(message: str) -> str:
    """The clause of a project note that is about the person, in the second person:
    "Keep the runs flat, my left hip flares up on hills" -> "Your left hip flares up on hills".
    A note that is one clause qualifies by its words (diet, health, family, ...); a note that
    mixes an instruction with a first-person reason qualifies by that reason."""
    typed = message.replace("’", "'").strip().rstrip(".!")
    # "sinde I'm vegetarian" gives its reason as "since I'm vegetarian" does, and "bc im
    # vegetarian" as "because i'm vegetarian": shorthand is read with where it came from, a
    # slip in place (same length), so the clause offered is cut from what was typed
    reading = read_shorthand(typed)
    read = spelled(reading.read, vocabulary())
    cuts = [0, *(i for found in CLAUSE_BREAK.finditer(read) for i in found.span()), len(read)]
    clauses = [
        (typed[slice(*reading.typed_span(a, b))], read[a:b])
        for a, b in zip(cuts[::2], cuts[1::2], strict=True)
        if b > a
    ]
    for clause, clause_read in clauses:
        first_person = FIRST_PERSON.match(clause_read)
        if first_person and (len(clauses) > 1 or PERSONAL_NOTE.search(clause_read)):
            return to_second_person(clause)
    return ""


def cross_promotion_offer(clause: str) -> str:
    """The offer to remember a personal clause across all projects."""
    return f"Want me to remember {as_clause(clause)} across all your projects?"


def offers_cross_promotion(request: RespondRequest) -> bool:
    """Whether the cross-promotion instruction applies: a project turn that noted a fact
    about the person as project knowledge."""
    has_instruction = any(ref.family == "cross_promotion" for ref in request.system.refs)
    route = request.route
    if not has_instruction or route.intent != "add_knowledge":
        return False
    return route.operation_data.get("action") == Action.HELD and bool(
        personal_clause(request.message)
    )


class LocalResponder:
    """Says exactly what the handler did, in the voice of the intent instructions."""

    name = NAME
    model = MODEL

    def respond(self, request: RespondRequest) -> Reply:
        """The composed reply; it cannot fail. With tools, a reported status is noted (and
        said so), and a question about the past that the handler found nothing for is searched."""
        text = compose_reply(request.route)
        if offers_cross_promotion(request):
            text = f"{text} {cross_promotion_offer(personal_clause(request.message))}"
        if request.tools is not None:
            text = " ".join([text, *_tool_sentences(request)])
        return Reply(text=text, provider=NAME, model=MODEL)


def _tool_sentences(request: RespondRequest) -> list[str]:
    tools = request.tools
    assert tools is not None
    said: list[str] = []
    said.extend(which_to_forget(request.route, tools))
    found = request.route.operation_data.get("action") == Action.FOUND
    if not found and ASKS_PAST.search(request.message):
        lines = tools.search(request.message, include_context=True)
        if lines:
            said.append("From what you've told me before:\n" + "\n".join(lines))
    return said


def which_to_forget(route: RouteResult, tools: Toolbox) -> list[str]:
    """After a forget request that matched nothing stored ("drop the part about my old job"
    when the fact says "You work at a bakery in Leeds"), what memory holds nearest to it, so
    the person can say which one to forget instead of being told there is nothing."""
    data = route.operation_data
    if route.intent != "forget_about_me" or data.get("action") != Action.NO_MATCH:
        return []
    described = str(data.get("forget_description") or "")
    if not data.get("stored_count") or not described:
        return []
    lines = tools.search(described)
    if not lines:
        return []
    return ["The nearest I have:\n" + "\n".join(lines[:3]) + "\nTell me which one to forget."]
