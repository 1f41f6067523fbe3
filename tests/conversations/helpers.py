"""What the conversation lifecycle tests share: a person talking through the real pipeline
(scripted classifier and replies), and a fake structured model with scripted answers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.converse import converse
from pipeline.domain import Usage
from pipeline.providers.base import Providers
from pipeline.providers.scripted import ScriptedProvider, ScriptEntry
from pipeline.providers.structured import StructuredAnswer, StructuredRequest
from pipeline.store import Store


def talk(store: Store, person: str, *messages: str, project: str | None = None) -> None:
    """Each message as one turn of `person`, classified as conversation, replied "I see."."""
    provider = ScriptedProvider(
        [
            ScriptEntry(message=m, intent="general_conversation", params={}, reply="I see.")
            for m in messages
        ]
    )
    for message in messages:
        converse(
            store,
            person=person,
            project=project,
            message=message,
            providers=Providers.of(provider, provider),
        )


@dataclass
class FakeModel:
    """A structured model answering from a script, per schema, in order; it records what it
    was sent. For the plumbing of retries and recorded errors, never scored as a model."""

    answers: dict[str, list[str]]
    name: str = "fake"
    sent: list[StructuredRequest] = field(default_factory=list)

    def generate(self, request: StructuredRequest) -> StructuredAnswer:
        self.sent.append(request)
        queue: Sequence[str] = self.answers[request.schema_name]
        text = queue[0] if len(queue) == 1 else self.answers[request.schema_name].pop(0)
        return StructuredAnswer(text=text, method="fake scripted", usage=Usage())
