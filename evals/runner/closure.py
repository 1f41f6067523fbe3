"""The closure target: one annotated conversation through the real compression pipeline.

The case's turns, open state and destinations become the pipeline's CompressionInput; the
provider's structured generator answers the stages (None: the deterministic fallbacks, which
is what the `pipeline` baseline row runs). No store is involved: compression reads only what
it is given.
"""

from __future__ import annotations

import time
from typing import Any

from evals.dataset.closure import PIPELINE_KIND, ClosureCase
from evals.runner.outcome import Outcome
from evals.runner.providers import Bound
from pipeline.conversation_models import ENTITY_KINDS, Extraction, OpenItem, entity_text
from pipeline.conversations import CompressionInput, compress
from pipeline.domain import PromptRef, Usage
from pipeline.providers import StructuredAnswer, StructuredGenerator, StructuredRequest
from pipeline.providers.claude import cost, total_cost


def compression_input(case: ClosureCase) -> tuple[CompressionInput, dict[int, str]]:
    """The pipeline's input for a case, and the open items' numeric ids -> the case's ids.

    The store numbers open items; the suite names them (`w1`), so they are numbered in order.
    Which project each turn was in is not annotated, so routing gets no turn shares.
    """
    ids = {number: item.id for number, item in enumerate(case.open_state, start=1)}
    items = tuple(
        OpenItem(id=number, kind=PIPELINE_KIND[item.kind], text=item.line)
        for number, item in enumerate(case.open_state, start=1)
    )
    data = CompressionInput(
        operator_name=case.person,
        turns=tuple(case.roles),
        open_items=items,
        destinations=tuple(case.destinations),
    )
    return data, ids


def extraction_record(extraction: Extraction, ids: dict[int, str]) -> dict[str, Any]:
    """What the scorer reads: entities per kind as one-line texts, the narrative, the
    resolved open ids (the case's names), the suggested destination and each stage's method."""
    entities = {
        kind: [entity_text(kind, item.model_dump()) for item in getattr(extraction.entities, kind)]
        for kind in ENTITY_KINDS
    }
    return {
        "entities": entities,
        "narrative": extraction.narrative,
        "resolved": sorted({ids.get(r.entity_id, f"#{r.entity_id}") for r in extraction.resolved}),
        "destination": extraction.routing.destination,
        "routing_confidence": extraction.routing.confidence,
        "routing_reasoning": extraction.routing.reasoning,
        "stages": [
            {"stage": s.stage, "method": s.method, "attempts": s.attempts, "error": s.error}
            for s in extraction.stages
        ],
    }


def run_closure(case: ClosureCase, bound: Bound) -> Outcome:
    """Compress the case's conversation with the bound provider's structured generator.

    A stage whose model answers were unusable falls back, as in a real close; its recorded
    error is kept in the row's stages, and the case is scored on what the person would see.
    """
    data, ids = compression_input(case)
    counted = None if bound.structured is None else _Counted(bound.structured)
    started = time.perf_counter()
    extraction = compress(data, bound.library, counted, lexicon=bound.lexicon)
    elapsed = (time.perf_counter() - started) * 1000
    refs = tuple(s.prompt for s in extraction.stages if isinstance(s.prompt, PromptRef))
    return Outcome(
        got=extraction_record(extraction, ids),
        model=(counted.model or bound.model) if counted is not None else "",
        prompt_refs=refs,
        usage=counted.usage if counted is not None else Usage(),
        latency_ms=elapsed,
        cassette=bound.cassette,
        truncated=counted.truncated if counted is not None else 0,
        cost_usd=total_cost(counted.costs) if counted is not None else None,
    )


class _Counted:
    """The provider's generator, adding up what its answers used (compress() keeps no tally)."""

    def __init__(self, inner: StructuredGenerator) -> None:
        self.inner = inner
        self.name = inner.name
        self.usage = Usage()
        self.truncated = 0
        self.costs: list[float | None] = []
        self.model = ""

    def generate(self, request: StructuredRequest) -> StructuredAnswer:
        """One call to the inner model, counted."""
        answer = self.inner.generate(request)
        self.usage = self.usage + answer.usage
        self.truncated += answer.truncated
        # the method is "<provider> <model>": the model that answered (prices are by model)
        self.model = answer.method.partition(" ")[2] or answer.method
        self.costs.append(cost(self.model, answer.usage))
        return answer
