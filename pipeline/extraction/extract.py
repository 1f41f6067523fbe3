"""Multi-fact extraction: 1–5 candidate personal facts from one long message.

With a structured generator (Claude, the embedded generative model) the `fact_extraction`
template asks for a strict JSON answer, retried once and recorded when unusable, as the
compression stages do (pipeline/conversations/stages.py); otherwise, or after an unusable
answer, the deterministic splitter (pipeline/english/split.py) answers, labelled as such.
Every candidate passes the writing constraints (pipeline/memory/writing.py) before it can be
offered: trimmed when that saves it, dropped when not, first-pass failures counted.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from pipeline.conversation_models import StageRecord
from pipeline.conversations.stages import FALLBACK, Stage, ask
from pipeline.english.facts import same_statement
from pipeline.english.split import MAX_CANDIDATES, split_facts
from pipeline.intents.facts import clean_fact
from pipeline.lexicon import Lexicon
from pipeline.memory.writing import Admitted, admit
from pipeline.prompting import PromptLibrary, fence
from pipeline.providers.structured import StructuredGenerator


class CandidateFact(BaseModel):
    """One fact as the model states it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(min_length=1, max_length=600)
    # no regex pattern: llama.cpp's schema-to-grammar converter handles patterns unevenly
    category: str = Field(min_length=1, max_length=32)
    importance: int = Field(ge=1, le=5)


class FactsAnswer(BaseModel):
    """The extraction stage's answer: 1–5 facts, most important first."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    facts: list[CandidateFact] = Field(min_length=1, max_length=MAX_CANDIDATES)


STAGE = Stage("facts", "fact_extraction", FactsAnswer, 400)


@dataclass(frozen=True)
class Extracted:
    """The candidates (best first, at most five), how they were had, and the writing check of
    each item as it was written."""

    facts: tuple[str, ...]
    method: str
    record: StageRecord | None = None  # the model stage, when one was asked
    checked: tuple[Admitted, ...] = ()

    @property
    def first_pass_failures(self) -> int:
        """Items that broke a writing rule as written (trimmed or rejected afterwards)."""
        return sum(not a.first_pass for a in self.checked)

    @property
    def rejected(self) -> int:
        """Items no trim could save."""
        return sum(a.text is None for a in self.checked)


def _checked(
    texts: list[str], method: str, record: StageRecord | None, lexicon: Lexicon
) -> Extracted:
    checked = tuple(admit(text, "second", lexicon=lexicon) for text in texts)
    kept: list[str] = []
    for verdict in checked:
        if verdict.text is None:
            continue
        fact = clean_fact(verdict.text)
        if not any(same_statement(fact, k) for k in kept):
            kept.append(fact)
    return Extracted(tuple(kept[:MAX_CANDIDATES]), method, record, checked)


def extract_facts(
    message: str,
    *,
    operator_name: str,
    library: PromptLibrary,
    generator: StructuredGenerator | None,
    lexicon: Lexicon,
) -> Extracted:
    """The message's candidate facts, checked with the `lexicon` the provider bundle lends;
    never raises for a model's bad answer (it is recorded and the splitter answers instead)."""
    if generator is None:
        return _checked(split_facts(message), "sentence splitter", None, lexicon)
    answer, record = ask(
        generator,
        library,
        STAGE,
        operator_name=operator_name,
        user=fence(message, "message"),
    )
    if answer is None:
        return _checked(split_facts(message), f"sentence splitter ({FALLBACK})", record, lexicon)
    ranked = sorted(answer.facts, key=lambda f: -f.importance)  # stable: ties keep their order
    found = _checked([f.text for f in ranked], record.method, record, lexicon)
    if found.facts or not ranked:
        return found
    # Every fact the model wrote broke the writing rules (a small model writes "I'm ..."):
    # the splitter answers, and the model's items stay counted as first-pass failures.
    error = f"every fact {record.method} wrote broke the writing constraints"
    split = _checked(split_facts(message), f"sentence splitter ({FALLBACK})", None, lexicon)
    return Extracted(
        split.facts,
        split.method,
        record.model_copy(update={"error": error}),
        found.checked + split.checked,
    )
