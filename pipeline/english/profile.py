"""The English wording of a change to a sensitive profile field (specification 004, "Consent
Policy"), lent to the core as data through `ENGLISH.profile_patterns` (pipeline/lexicon.py).

The `local` provider's reading says with these which field a fact changes; a model's answer
that does not say falls back to them (pipeline/memory/profile_fields.py). Each pattern is read
on the stored wording ("You go by Sam") and on the person's ("I go by Sam").
"""

from __future__ import annotations

from pipeline.domain import ProfileField

PROFILE_PATTERNS: tuple[tuple[ProfileField, str], ...] = (
    (
        ProfileField.PREFERRED_NAME,
        r"\b(?:go(?:es)? by|call (?:me|you)|(?:my|your|preferred|first) name(?: is|'s)|"
        r"prefers? to be called|(?:i'm|you're|i am|you are) known as|nickname is)\b",
    ),
    (
        ProfileField.PRONOUNS,
        r"\bpronouns?\b|\b(?:she/her|he/him|they/them|ze/zir|xe/xem)\b",
    ),
    (
        ProfileField.CITY,
        r"\b(?:live|lives|living|based|moved|moving|relocated|relocating|reside|residing)"
        r" (?:in|to|out to)\b|\b(?:home ?town|home city|city) is\b",
    ),
    (
        ProfileField.LANGUAGE,
        r"\b(?:native|first|mother|home|main|preferred) (?:language|tongue)\b|"
        r"\b(?:speak|speaks|speaking) (?:\w+ ){0,2}(?:at home|natively|fluently|with)\b",
    ),
)
