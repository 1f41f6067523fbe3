"""The local responder: deterministic replies built from the operation result — not an LLM."""

from __future__ import annotations

import re

from pipeline.domain import Reply
from pipeline.providers.base import RespondRequest
from pipeline.providers.replies import compose_reply

NAME = "local"
MODEL = "template replies (not an LLM)"

# What makes a project note about the person rather than the project's subject: a first-person
# statement about diet, health, family, home, schedule or taste. The cross-promotion
# instruction asks for an offer only when a fact clearly matters beyond the project.
_PERSONAL = re.compile(
    r"^(?:i|i'm|im|i am|i've|my|we're a|our family)\b.*\b(?:allerg\w*|vegetarian|vegan|"
    r"pescatarian|gluten|lactose|dairy|celiac|coeliac|kosher|halal|diabet\w*|don't eat|"
    r"can't eat|do not eat|avoid\w*|intoleran\w*|wife|husband|partner|son|daughter|kids?|"
    r"children|baby|mom|dad|mother|father|sister|brother|family|live|living|moved|based|"
    r"birthday|left-handed|right-handed|colou?r-?blind|pregnan\w*|knee|back|shoulder|"
    r"wheelchair|hate|love|prefer|can't stand|night shift|early riser|morning person|"
    r"night owl|work(?:ing)? from home|commute|sober|don't drink)\b",
    re.IGNORECASE,
)
CROSS_PROMOTION_OFFER = (
    "That sounds like it's about you, not just this project — want me to remember it across "
    "all your projects?"
)


def offers_cross_promotion(request: RespondRequest) -> bool:
    """Whether the cross-promotion instruction applies: a project turn that noted a fact
    about the person as project knowledge."""
    has_instruction = any(ref.family == "cross_promotion" for ref in request.system.refs)
    route = request.route
    if not has_instruction or route.intent != "add_knowledge":
        return False
    return route.operation_data.get("action") == "held" and bool(
        _PERSONAL.search(request.message.replace("’", "'"))
    )


class LocalResponder:
    """Says exactly what the handler did, in the voice of the intent instructions."""

    name = NAME
    model = MODEL

    def respond(self, request: RespondRequest) -> Reply:
        """The composed reply; it cannot fail."""
        text = compose_reply(request.route)
        if offers_cross_promotion(request):
            text = f"{text} {CROSS_PROMOTION_OFFER}"
        return Reply(text=text, provider=NAME, model=MODEL)
