"""The shipped reader on phrasings of the failure classes it exists for (docs/reader.md).

Each message is written apart from the corpus (checked below); these read the real weights.
Known failures are listed in docs/reader.md ("What does not work yet"), not tested here.
"""

from __future__ import annotations

import pytest

from pipeline.providers.reader import ReaderContext, read
from training.build import read_corpus
from training.schema import normalised

pytestmark = pytest.mark.slow

OFFER = ReaderContext("offer", "Want me to remember that you cycle to work on Tuesdays?")
THREE = ReaderContext(
    "offers",
    "I noted 3 things: 1. You cycle 2. You live in Hull 3. You have a cat. Keep which?",
    False,
    3,
)
CASES: list[tuple[str, ReaderContext]] = []


def _case(message: str, context: ReaderContext) -> tuple[str, ReaderContext]:
    CASES.append((message, context))
    return message, context


def test_the_messages_here_are_not_in_the_corpus() -> None:
    corpus = {normalised(r["message"]) for r in read_corpus()}
    assert [m for m, _ in CASES if normalised(m) in corpus] == []


ALL_THREE = _case("all 3 are correct thanks", THREE)
CROSS = _case("❌ nope", OFFER)
THUMBS = _case("👍👍👍", OFFER)
CONFIRM_AND_FACT = _case("yes thats right, oh and I also have a dodgy ankle", OFFER)
POLITE_KEEP = _case("could you please remember that my brother is called Idris?", ReaderContext())
STATUS = _case("my car battery died, mechanic is coming thursday", ReaderContext())


def test_all_with_a_digit_is_every_item() -> None:
    out = read(*ALL_THREE)
    assert out.chosen != (3,)
    assert out.relation == "confirm" and out.chosen == "all"


def test_a_cross_rejects_and_thumbs_confirm() -> None:
    assert read(*CROSS).relation == "reject"
    assert read(*THUMBS).relation == "confirm"


def test_a_confirm_keeps_the_new_fact_after_it() -> None:
    out = read(*CONFIRM_AND_FACT)
    assert out.relation == "confirm"
    facts = [a for a in out.acts if a.intent == "remember_about_me" and a.span is not None]
    assert any("ankle" in a.span.text for a in facts if a.span is not None)


def test_a_request_phrased_as_a_question_is_a_request() -> None:
    out = read(*POLITE_KEEP)
    facts = [a for a in out.acts if a.intent == "remember_about_me"]
    assert (
        facts and not facts[0].question and "Idris" in (facts[0].span.text if facts[0].span else "")
    )


def test_a_status_report_is_a_status_act() -> None:
    out = read(*STATUS)
    assert out.status and any(a.status for a in out.acts)
