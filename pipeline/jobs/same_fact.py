"""Is a pair of memories one fact? Asked of the provider's model in batches of BATCH pairs
through the structured-generation protocol (strict answer, one retry, the error recorded),
and otherwise decided by the deterministic rule, labelled as such.

The deterministic rule (a labelled fallback that reads English, pipeline/jobs/restatement.py)
merges only restatements: the same words in the same order, point of view and framing aside
("You're allergic to shellfish" / "You are allergic to shellfish"). Word order counts, so
"Tom helps Mia" is never "Mia helps Tom". It never merges a paraphrase or an update ("You're
42" / "You're 43"): those need a model, and with none they stay as they are, which loses
nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from pipeline.conversation_models import StageRecord
from pipeline.conversations.stages import FALLBACK, Stage, ask
from pipeline.jobs.pairs import Pair
from pipeline.jobs.restatement import restatement
from pipeline.prompting import PromptLibrary, fence
from pipeline.providers.structured import StructuredGenerator

BATCH = 8
FAMILY = "consolidation_same_fact"


class PairVerdict(BaseModel):
    """The model's verdict on one numbered pair."""

    model_config = ConfigDict(extra="forbid")

    pair: int = Field(ge=1, le=BATCH)
    same_fact: bool


class SameFactAnswer(BaseModel):
    """One verdict per pair asked about."""

    model_config = ConfigDict(extra="forbid")

    verdicts: list[PairVerdict] = Field(min_length=1, max_length=BATCH)


SAME_FACT = Stage("same_fact", FAMILY, SameFactAnswer, 200)


@dataclass(frozen=True)
class Verdict:
    """Whether a pair is one fact, and who decided (a model's method, or FALLBACK)."""

    pair: Pair
    same: bool
    method: str


def _check(asked: int) -> Any:
    def check(answer: SameFactAnswer) -> None:
        numbers = sorted(v.pair for v in answer.verdicts)
        if numbers != list(range(1, asked + 1)):
            raise ValueError(f"verdicts must cover pairs 1..{asked} once each, not {numbers}")

    return check


def _schema(asked: int) -> dict[str, Any]:
    """The answer's schema for this batch: pair numbers 1..asked, one verdict each."""
    schema = SameFactAnswer.model_json_schema()
    schema["$defs"]["PairVerdict"]["properties"]["pair"] = {
        "type": "integer",
        "enum": list(range(1, asked + 1)),
    }
    schema["properties"]["verdicts"].update(minItems=asked, maxItems=asked)
    return schema


def _user(batch: Sequence[Pair]) -> str:
    listed = [
        {"pair": n, "first": p.a.content, "second": p.b.content}
        for n, p in enumerate(batch, start=1)
    ]
    return (
        f"Pairs of stored memories:\n{fence(json.dumps(listed, ensure_ascii=False), 'pairs')}"
        "\n\nAnswer with the verdicts object."
    )


def decide(
    pairs: Sequence[Pair],
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    operator_name: str,
) -> tuple[list[Verdict], list[StageRecord]]:
    """A verdict for every pair, and a record of each model request (none without a model)."""
    verdicts: list[Verdict] = []
    records: list[StageRecord] = []
    for start in range(0, len(pairs), BATCH):
        batch = pairs[start : start + BATCH]
        answer: SameFactAnswer | None = None
        if generator is not None:
            answer, record = ask(
                generator,
                library,
                SAME_FACT,
                operator_name=operator_name,
                user=_user(batch),
                check=_check(len(batch)),
                schema=_schema(len(batch)),
            )
            records.append(record)
        if answer is None:
            verdicts.extend(
                Verdict(p, restatement(p.a.content, p.b.content), FALLBACK) for p in batch
            )
            continue
        method = records[-1].method
        same = {v.pair: v.same_fact for v in answer.verdicts}
        verdicts.extend(Verdict(p, same[n], method) for n, p in enumerate(batch, start=1))
    return verdicts, records
