"""The compression stages on the embedded model: real generation with SmolLM2, each answer
held to the stage's schema by the llama.cpp grammar and validated with pydantic. What a
135M model says is not what this tests; that every stage is either the model's validated
answer, labelled with the model, or a recorded error and the labelled fallback, is."""

from __future__ import annotations

from pipeline.conversation_models import YOUR_STORY, Entities
from pipeline.conversations.compress import CompressionInput, compress
from pipeline.conversations.stages import FALLBACK
from pipeline.english import ENGLISH
from pipeline.prompting import default_library
from pipeline.providers.base import Providers
from tests.local_llm.conftest import needs_runtime

TURNS = (
    ("operator", "I decided to repaint the shed green this weekend."),
    ("companion", "Green will suit the garden."),
)


@needs_runtime
def test_every_stage_is_the_models_validated_answer_or_a_recorded_error(small: Providers) -> None:
    assert small.structured is not None
    got = compress(
        CompressionInput(operator_name="Ana", turns=TURNS, destinations=(YOUR_STORY, "Garden")),
        default_library(),
        small.structured,
        lexicon=ENGLISH,
    )
    model = f"local-llm {small.model}"
    records = {s.stage: s for s in got.stages}
    assert set(records) == {"entities", "narrative", "deltas", "routing"}
    assert records["deltas"].method == "nothing open (no call)"
    for name in ("entities", "narrative", "routing"):
        record = records[name]
        assert record.prompt is not None and record.prompt.family == f"conversation_{name}"
        if record.error is None:
            assert record.method == model and record.attempts in (1, 2)
        else:
            assert record.method == FALLBACK and record.attempts == 2
            assert record.error.startswith(f"{model} gave no usable {name} answer")
    assert any(records[n].method == model for n in ("entities", "narrative", "routing"))
    Entities.model_validate(got.entities.model_dump())
    assert got.routing.destination in (YOUR_STORY, "Garden")
    assert 0.0 <= got.routing.confidence <= 1.0
