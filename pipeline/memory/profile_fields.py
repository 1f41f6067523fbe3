"""Which sensitive profile field a personal fact changes, so that it waits for consent
(specification 004, "Consent Policy"; pipeline/memory/consent.py).

The classifier's reading says it (`ClassifiedIntent.profile_field`). An answer that does not
say — an older classifier prompt version, a model that left the field out, or a fact held
without a reading — falls back to the wording patterns the provider bundle's lexicon lends
(labelled fallback); a bundle that lends none marks no fact, and such a fact still waits for
the person's yes like every held fact, only without the consent list and expiry.
"""

from __future__ import annotations

import re
from functools import cache

from pipeline.domain import ProfileField
from pipeline.lexicon import Lexicon


@cache
def _compiled(
    patterns: tuple[tuple[ProfileField, str], ...],
) -> tuple[tuple[ProfileField, re.Pattern[str]], ...]:
    return tuple((field, re.compile(source, re.IGNORECASE)) for field, source in patterns)


def read_field(content: str, lexicon: Lexicon) -> ProfileField | None:
    """The sensitive field a fact's wording names by the lexicon's patterns, if any."""
    for field, pattern in _compiled(lexicon.profile_patterns):
        if pattern.search(content):
            return field
    return None


def field_of(said: ProfileField | None, content: str, lexicon: Lexicon) -> ProfileField | None:
    """The field a fact is held with: the reading's when it says (NONE: no field), else the
    lexicon's reading of the fact's wording."""
    if said is not None:
        return None if said is ProfileField.NONE else said
    return read_field(content, lexicon)


def fields_of_many(
    said: ProfileField | None, facts: list[str], lexicon: Lexicon
) -> list[ProfileField | None]:
    """The fields of several facts held from one message. The reading names one field for
    the whole message, so each fact takes the field its own wording names and, failing that,
    the message's: a fact marked for consent that needed none only waits to be confirmed or
    expires, where one left unmarked would skip consent."""
    marked = None if said is ProfileField.NONE else said
    return [read_field(fact, lexicon) or marked for fact in facts]
