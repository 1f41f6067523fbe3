"""The local responder: deterministic replies built from the operation result — not an LLM."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pipeline.domain import Reply, RouteResult
from pipeline.english.extract import to_second_person
from pipeline.english.shorthand import read_shorthand
from pipeline.english.spelling import spelled
from pipeline.providers.base import RespondRequest
from pipeline.providers.local.words import vocabulary
from pipeline.providers.replies import as_clause, compose_reply

if TYPE_CHECKING:
    from pipeline.tools import Toolbox

NAME = "local"
MODEL = "template replies (not an LLM)"

# What makes a project note about the person rather than the project's subject: a first-person
# statement about diet, health, family, home, schedule or taste. The cross-promotion
# instruction asks for an offer only when a fact clearly matters beyond the project.
_PERSONAL = re.compile(
    r"\b(?:i|i'm|im|i am|i've|my|we're a|our family)\b.*\b(?:allerg\w*|vegetarian|vegan|"
    r"pescatarian|gluten|lactose|dairy|celiac|coeliac|kosher|halal|diabet\w*|don't eat|"
    r"can't eat|do not eat|avoid\w*|intoleran\w*|wife|husband|partner|son|daughter|kids?|"
    r"children|baby|mom|dad|mother|father|sister|brother|family|live|living|moved|based|"
    r"birthday|left-handed|right-handed|colou?r-?blind|pregnan\w*|knee|back|shoulder|"
    r"wheelchair|hip|wrist|ankle|neck|migraine\w*|asthma|hate|love|prefer|can't stand|"
    r"night shift|early riser|morning person|"
    r"night owl|work(?:ing)? from home|commute|sober|don't drink|tall|short|steering clear|"
    r"uses? a|coming)\b",
    re.IGNORECASE,
)
# A message that asks about an earlier conversation: the template responder searches itself.
_ASKS_PAST = re.compile(
    r"\b(?:did i (?:ever )?(?:tell|mention|say)|what did i (?:say|tell|mention)|do you remember|"
    r"remember (?:when|what|how|where|who|the|my)|last time|i (?:told|mentioned|said) (?:you|that)|"
    r"what was (?:the|my|that)|remind me (?:what|when|where|who|how|which))\b",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r"\s*(?:[,;:—–]|\s-\s|\b(?:since|because|as|so that|so)\b)\s*", re.I)


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
    cuts = [0, *(i for found in _CLAUSES.finditer(read) for i in found.span()), len(read)]
    clauses = [
        (typed[slice(*reading.typed_span(a, b))], read[a:b])
        for a, b in zip(cuts[::2], cuts[1::2], strict=True)
        if b > a
    ]
    for clause, clause_read in clauses:
        first_person = re.match(r"(?:i|i'm|i've|my|i am)\b", clause_read, re.IGNORECASE)
        if first_person and (len(clauses) > 1 or _PERSONAL.search(clause_read)):
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
    return route.operation_data.get("action") == "held" and bool(personal_clause(request.message))


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
    found = request.route.operation_data.get("action") == "found"
    if not found and _ASKS_PAST.search(request.message):
        lines = tools.search(request.message, include_context=True)
        if lines:
            said.append("From what you've told me before:\n" + "\n".join(lines))
    return said


def which_to_forget(route: RouteResult, tools: Toolbox) -> list[str]:
    """After a forget request that matched nothing stored ("drop the part about my old job"
    when the fact says "You work at a bakery in Leeds"), what memory holds nearest to it, so
    the person can say which one to forget instead of being told there is nothing."""
    data = route.operation_data
    if route.intent != "forget_about_me" or data.get("action") != "no_match":
        return []
    described = str(data.get("forget_description") or "")
    if not data.get("stored_count") or not described:
        return []
    lines = tools.search(described)
    if not lines:
        return []
    return ["The nearest I have:\n" + "\n".join(lines[:3]) + "\nTell me which one to forget."]
