"""The local responder: deterministic replies built from the operation result — not an LLM."""

from __future__ import annotations

from pipeline.domain import Reply
from pipeline.providers.base import RespondRequest
from pipeline.providers.replies import compose_reply

NAME = "local"
MODEL = "template replies (not an LLM)"


class LocalResponder:
    """Says exactly what the handler did, in the voice of the intent instructions."""

    name = NAME
    model = MODEL

    def respond(self, request: RespondRequest) -> Reply:
        """The composed reply; it cannot fail."""
        return Reply(text=compose_reply(request.route), provider=NAME, model=MODEL)
