"""The consolidation job's deterministic rule, used when no model answers the same-fact stage
(pipeline/jobs/same_fact.py): a labelled fallback that reads English, like the sentence
splitter of multi-fact extraction, so it lives apart from the job's language-free core.

It merges only restatements: the same words in the same order, point of view and framing
aside ("You're allergic to shellfish" / "You are allergic to shellfish"; pipeline/english/
facts.py). Negations and numbers are words, so "You eat no meat" is never "You eat meat".
"""

from __future__ import annotations

from pipeline.english.facts import fact_words


def restatement(a: str, b: str) -> bool:
    """Whether `b` restates `a` (and neither is framing alone)."""
    words_a = fact_words(a)
    return bool(words_a) and words_a == fact_words(b)
