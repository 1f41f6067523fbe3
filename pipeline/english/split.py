"""The deterministic multi-fact splitter (the `local` provider has no generative model).

A long message is cut into sentences, each sentence into clauses where a new first-person
statement begins ("..., and I'm allergic to cats"), and every clause that states something
about the speaker becomes a candidate fact in the second person, as facts are stored. It reads
general sentence shapes only: a clause that is a question, a request to the companion or
framing without content ("a few things about me") is left out.
"""

from __future__ import annotations

import re

from pipeline.english.cues import is_first_person_clause
from pipeline.english.extract import personal_fact, strip_framing
from pipeline.english.facts import same_statement, says_something

MAX_CANDIDATES = 5
_F = re.IGNORECASE
# Sentence ends, colons ("A bit about me: I'm ..."), semicolons, dashes, line breaks.
_SENTENCE = re.compile(r"(?<=[.!?:])\s+|\s*;\s*|\s+[—–]\s+|\s+-\s+|\s*\n+\s*")
_SUBJECT = r"(?:i|i'm|im|i've|i'd|i'll|my|we|we're|we've|our)\b"
# A clause boundary: a conjunction (or a bare comma) followed by a new first-person subject.
# A comma before a remark that is not about the speaker ("..., it would be nice if ...").
_REMARK = r"(?:it|it's|this|that's|there|hopefully|if|so|which is|though)\b"
_CLAUSE = re.compile(
    rf"\s*,\s*(?:and\s+|but\s+|plus\s+|also\s+|oh and\s+|and also\s+)?(?={_SUBJECT}|{_REMARK})"
    rf"|\s+(?:and|but|plus|and also|while|whereas)\s+(?={_SUBJECT})",
    _F,
)
_CONNECTOR = re.compile(
    r"^(?:and|but|also|plus|oh|so|anyway|btw|by the way|oh yeah|and also|finally|lastly|"
    r"one more thing|another thing|ok|okay|well|right|honestly|basically|actually|frankly|"
    r"for the record|for what it's worth|fyi)\b[\s,:]*",
    _F,
)
# The person asking the companion something rather than stating a fact about themselves.
_REQUEST = re.compile(
    r"^(?:can|could|would|will|do|did|please|pls)\b|\b(?:remember|note|keep|save|store)\b"
    r"(?: (?:all|each|both|these|those|this|that|them|it))+\b\s*$|"
    r"\b(?:about me|things about myself)\s*:?\s*$",
    _F,
)
_WE = re.compile(r"^(?:we|we're|we've|our)\b", _F)
# A request to remember around the statement ("I'd like you to remember that I ...").
_ASK_TO_REMEMBER = re.compile(
    r"^(?:i'?d like you to|i want you to|i need you to|(?:can|could|would) you(?: please)?|"
    r"please)\s+(?:remember|note|know|keep in mind|bear in mind)\s+(?:that\s+)?",
    _F,
)


def clauses(message: str) -> list[str]:
    """The message's clauses, in order, without leading connectors."""
    found: list[str] = []
    for sentence in _SENTENCE.split(message):
        for clause in _CLAUSE.split(sentence):
            text = clause.strip(" ,.;:!")
            for _ in range(3):
                stripped = _CONNECTOR.sub("", text).strip(" ,")
                if stripped == text:
                    break
                text = stripped
            if text:
                found.append(text)
    return found


def _about_speaker(clause: str) -> str | None:
    """The clause as a stored fact when it states something about the speaker."""
    clause = _ASK_TO_REMEMBER.sub("", clause)
    if clause.rstrip().endswith("?") or _REQUEST.search(clause):
        return None
    body = strip_framing(clause)
    if not body or not (is_first_person_clause(body) or _WE.match(body)):
        return None
    fact = personal_fact(body)
    return fact if says_something(fact) and len(fact.split()) >= 2 else None


def split_facts(message: str) -> list[str]:
    """Up to MAX_CANDIDATES distinct facts the message states about the speaker."""
    facts: list[str] = []
    for clause in clauses(message):
        fact = _about_speaker(clause)
        if fact is not None and not any(same_statement(fact, f) for f in facts):
            facts.append(fact)
        if len(facts) == MAX_CANDIDATES:
            break
    return facts
