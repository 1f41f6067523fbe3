"""The trained reader as a classifier: its reading turned into the core's acts.

A stand-in reader gives fixed outputs, so each mapping is checked apart from the weights; the
last tests read with the real weights through the registered `local-reader` provider.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from pipeline.actions import Action
from pipeline.domain import HistoryTurn, Role
from pipeline.errors import ConverseError
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.local.model import MiniLMEmbedder
from pipeline.providers.local_reader.classifier import ReaderClassifier, pending_of
from pipeline.providers.reader.decode import ReadAct, ReaderOutput
from pipeline.providers.reader.encode import Encoded, ReaderContext
from pipeline.providers.reader.spans import Span, spans_of
from pipeline.reading import Relation


class FixedReader:
    """Answers every message with one output, and keeps the context it was given."""

    manifest: Mapping[str, Any] = {"heads_sha256": "ab" * 32}

    def __init__(self, out: ReaderOutput) -> None:
        self.out = out
        self.seen: list[ReaderContext] = []

    def read(self, message: str, context: ReaderContext | None = None) -> ReaderOutput:
        self.seen.append(context or ReaderContext())
        return self.out


def output(
    relation: str = "none",
    acts: tuple[ReadAct, ...] = (),
    corrected: Span | None = None,
    chosen: tuple[int, ...] | str | None = None,
) -> ReaderOutput:
    probs = {"relation": {relation: 0.9}, "intent": {"general_conversation": 0.8}}
    return ReaderOutput(
        relation=relation,
        chosen=chosen,
        corrected=corrected,
        intent="general_conversation",
        question=False,
        restore=False,
        status=False,
        profile_field="none",
        acts=acts,
        spans=(),
        probs=probs,
    )


def span(kind: str, text: str) -> Span:
    return Span(kind, 0, len(text), text, 0.9)


OFFER = (
    HistoryTurn(role=Role.OPERATOR, content="I live in Lisbon"),
    HistoryTurn(
        role=Role.COMPANION,
        content="Shall I remember that you live in Lisbon?",
        intent="remember_about_me",
        operation_data={
            "action": Action.HELD,
            "personal_fact": "You live in Lisbon",
            "assertion_display_number": 4,
        },
    ),
)
MANY = (
    HistoryTurn(role=Role.OPERATOR, content="I swim and I have a cat and I live in Hull"),
    HistoryTurn(
        role=Role.COMPANION,
        content="I noted three things: #7 You swim, #8 You have a cat, #9 You live in Hull.",
        intent="remember_about_me",
        operation_data={
            "action": Action.HELD_MANY,
            "facts": [
                {"display_number": 7, "content": "You swim"},
                {"display_number": 8, "content": "You have a cat"},
                {"display_number": 9, "content": "You live in Hull"},
            ],
        },
    ),
)


def classify(out: ReaderOutput, message: str = "…", history: tuple[HistoryTurn, ...] = ()):  # type: ignore[no-untyped-def]
    fixed = FixedReader(out)
    classifier = ReaderClassifier(MiniLMEmbedder(), loaded=fixed)  # type: ignore[arg-type]
    return classifier.classify(ClassifyRequest(message, history=history)), fixed


def test_the_reader_is_told_what_the_last_turn_left_pending() -> None:
    assert pending_of(ClassifyRequest("hi")).context.pending == "none"
    offer = pending_of(ClassifyRequest("yes", history=OFFER))
    assert offer.context.pending == "offer" and offer.offer is not None
    assert offer.offer.fact == "You live in Lisbon"
    many = pending_of(ClassifyRequest("yes", history=MANY))
    assert many.context.pending == "offers" and many.context.items == 3


def test_a_fresh_fact_span_is_stored_in_the_second_person() -> None:
    read = ReadAct("remember_about_me", span=span("FACT", "I'm allergic to kiwi"))
    got, _ = classify(output(acts=(read,)), "could u remember that i'm allergic to kiwi?")
    assert got.intent == "remember_about_me"
    assert got.params == {"personal_fact": "You're allergic to kiwi"}
    assert got.provider == "local-reader" and got.confidence == 0.8


def test_a_confirmation_takes_the_offered_fact_and_a_new_fact_follows() -> None:
    knee = ReadAct("remember_about_me", span=span("FACT", "I've got a bad knee"))
    got, fixed = classify(output("confirm", (knee,)), "yes, and I've got a bad knee", OFFER)
    assert fixed.seen[0].pending == "offer"
    first, second = got.all_acts()
    assert first.reading is not None and first.reading.relation is Relation.CONFIRM
    assert first.params == {"personal_fact": "You live in Lisbon"}
    assert second.params == {"personal_fact": "You've got a bad knee"}
    assert second.reading is None


def test_a_correction_puts_the_value_in_place_of_the_old_one() -> None:
    got, _ = classify(output("correct", corrected=span("CORRECTION", "Porto")), "nah Porto", OFFER)
    assert got.reading is not None and got.reading.relation is Relation.CORRECT
    assert got.params == {"personal_fact": "You live in Porto"}


def test_a_rejection_is_conversation_and_its_chat_is_no_act() -> None:
    chat = ReadAct("general_conversation", question=True, span=span("QUESTION", "how are you"))
    got, _ = classify(output("reject", (chat,)), "no. how are you?", OFFER)
    assert [a.intent for a in got.all_acts()] == ["general_conversation"]
    assert got.reading is not None and got.reading.relation is Relation.REJECT


def test_a_choice_among_several_offers_names_their_display_numbers() -> None:
    got, _ = classify(output("choose", chosen=(1, 3)), "just the first and last", MANY)
    assert got.reading is not None and got.reading.chosen == (7, 9)


def test_a_choice_the_reader_cannot_place_asks_rather_than_guesses() -> None:
    got, _ = classify(output("choose", chosen=None), "the other ones", MANY)
    assert got.reading is not None and got.reading.relation is Relation.UNRELATED


def test_nothing_read_is_conversation() -> None:
    got, _ = classify(output(), "ugh the weather is trash today")
    assert got.intent == "general_conversation" and got.params == {}


def test_a_fact_span_with_nothing_to_store_is_no_act() -> None:
    empty = ReadAct("remember_about_me", span=span("FACT", " , "))
    got, _ = classify(output(acts=(empty,)), "remember , ")
    assert [a.intent for a in got.all_acts()] == ["general_conversation"]


def _encoded(message: str, words: list[tuple[int, int]]) -> Encoded:
    offsets: list[tuple[int, int] | None] = [None, *words, None]
    ids = np.zeros(len(offsets), dtype=np.int64)
    return Encoded(ids, ids.copy(), offsets)


TAGS = ["O", "B-FACT", "I-FACT", "B-QUESTION", "I-QUESTION"]


def _probs(rows: list[str]) -> np.ndarray:
    out = np.full((len(rows), len(TAGS)), 0.01)
    for i, tag in enumerate(rows):
        out[i, TAGS.index(tag)] = 0.96
    return out


def test_a_word_split_into_pieces_stays_in_its_span() -> None:
    message = "I eat gluten"
    pieces = [(0, 1), (2, 5), (6, 7), (7, 9), (9, 12)]  # "gluten" as g / lu / ten
    probs = _probs(["O", "B-FACT", "I-FACT", "I-FACT", "O", "O", "O"])
    spans = spans_of(probs, TAGS, _encoded(message, pieces), message)
    assert [s.text for s in spans] == ["I eat gluten"]


def test_a_run_has_one_kind_and_a_short_gap_joins_but_a_full_stop_does_not() -> None:
    message = "I wear size nine. what now"
    words = [(0, 1), (2, 6), (7, 11), (12, 16), (16, 17), (18, 22), (23, 26)]
    rows = ["O", "B-FACT", "I-QUESTION", "O", "I-FACT", "O", "B-QUESTION", "I-QUESTION", "O"]
    probs = _probs(rows)
    probs[2] = 0.0
    probs[2, TAGS.index("I-FACT")] = 0.5  # the run's kind is decided over the run: FACT
    probs[2, TAGS.index("I-QUESTION")] = 0.5
    probs[2, TAGS.index("O")] = 0.0
    spans = spans_of(probs, TAGS, _encoded(message, words), message)
    assert [(s.kind, s.text) for s in spans] == [
        ("FACT", "I wear size nine"),
        ("QUESTION", "what now"),
    ]


def test_the_provider_names_its_weights_and_corpus_and_takes_no_options() -> None:
    from pipeline.providers.reader.model import read_manifest
    from pipeline.providers.registry import make_providers

    built = make_providers("local-reader")
    manifest = read_manifest()
    assert manifest["heads_sha256"][:12] in built.label
    assert manifest["corpus_sha256"][:12] in built.label
    assert built.weights == manifest["heads_sha256"]
    from pipeline.providers.base import ProviderOptions

    with pytest.raises(ConverseError, match="unknown local option"):
        make_providers("local-reader", ProviderOptions(settings={"min_confidence": "0.3"}))


@pytest.mark.slow
def test_a_question_form_request_is_read_as_a_request_with_the_real_weights() -> None:
    from pipeline.providers.registry import make_providers

    classifier = make_providers("local-reader").classifier
    got = classifier.classify(ClassifyRequest("could u remember that i'm allergic to kiwi?"))
    assert got.intent == "remember_about_me"
    assert got.params == {"personal_fact": "You're allergic to kiwi"}
    assert not got.question


def test_a_stated_value_runs_to_the_end_of_its_clause() -> None:
    message = "I can't eat gluten, what now"
    words = [(0, 1), (2, 7), (7, 8), (8, 11), (12, 13), (13, 15), (15, 18), (18, 19)]
    words += [(20, 24), (25, 28)]
    rows = ["O", "B-FACT", "I-FACT", "I-FACT", "I-FACT", "O", "O", "O", "O"]
    rows += ["B-QUESTION", "I-QUESTION", "O"]
    spans = spans_of(_probs(rows), TAGS, _encoded(message, words), message)
    assert [(s.kind, s.text) for s in spans] == [
        ("FACT", "I can't eat gluten"),
        ("QUESTION", "what now"),
    ]


def test_spans_agree_with_a_sure_intent_head() -> None:
    from pipeline.providers.reader.decode import agreed

    message = "would you mind forgetting that I'm learning Japanese?"
    fact = Span("FACT", 31, 52, "I'm learning Japanese", 0.9)
    forget = {"forget_about_me": 0.9, "remember_about_me": 0.1, "general_conversation": 0.0}
    assert [s.kind for s in agreed([fact], forget, message)] == ["FORGET"]
    unsure = {"forget_about_me": 0.5, "remember_about_me": 0.5, "general_conversation": 0.0}
    assert [s.kind for s in agreed([fact], unsure, message)] == ["FACT"]


def test_a_value_span_right_after_the_heads_kind_continues_it() -> None:
    from pipeline.providers.reader.decode import agreed

    message = "Please forget my old address on Elm Street."
    spans = [
        Span("FORGET", 14, 31, "my old address on", 0.9),
        Span("FACT", 32, 42, "Elm Street", 0.7),
    ]
    forget = {"forget_about_me": 0.95, "remember_about_me": 0.05}
    assert [(s.kind, s.text) for s in agreed(spans, forget, message)] == [
        ("FORGET", "my old address on Elm Street")
    ]


def test_a_sure_spanless_intent_makes_no_act_of_its_spans() -> None:
    from pipeline.providers.reader.decode import agreed

    message = "Export everything for the novel into a Word document."
    spans = [Span("KNOWLEDGE", 26, 52, "novel into a Word document", 0.7)]
    export = {"export_project": 0.99, "add_knowledge": 0.01}
    assert agreed(spans, export, message) == []
    unsure = {"export_project": 0.6, "add_knowledge": 0.4}
    assert agreed(spans, unsure, message) == spans


def test_sure_conversation_states_no_fact_unless_it_also_asks() -> None:
    from pipeline.providers.reader.decode import agreed

    chat = {"general_conversation": 0.95, "remember_about_me": 0.05}
    irony = [Span("FACT", 0, 14, "I LOVE mondays", 0.9), Span("STATUS", 15, 21, "monday", 0.9)]
    assert [s.kind for s in agreed(irony, chat, "I LOVE mondays monday")] == ["STATUS"]
    message = "what now? I'm vegan"
    asks = [Span("QUESTION", 0, 8, "what now", 0.9), Span("FACT", 10, 19, "I'm vegan", 0.9)]
    assert [s.kind for s in agreed(asks, chat, message)] == ["QUESTION", "FACT"]


def test_sure_conversation_states_nothing_before_or_inside_its_question() -> None:
    from pipeline.providers.reader.decode import agreed

    chat = {"general_conversation": 0.99, "remember_about_me": 0.01}
    message = "If I went vegan, would I still get enough protein from this meal plan?"
    spans = [
        Span("FACT", 5, 15, "went vegan", 0.9),
        Span("QUESTION", 35, 49, "enough protein", 0.9),
        Span("FORGET", 60, 69, "meal plan", 0.8),
    ]
    assert [s.kind for s in agreed(spans, chat, message)] == ["QUESTION"]


def test_a_sure_correction_below_the_inside_floor_takes_its_likeliest_value() -> None:
    from pipeline.providers.reader.spans import likeliest

    tags = ["O", "B-CORRECTION", "I-CORRECTION"]
    message = "oops, it's 15 km each way, not 12"
    words = [(0, 4), (4, 5), (6, 10), (11, 13), (14, 16), (17, 21), (22, 25), (25, 26)]
    words += [(27, 30), (31, 33)]
    # per word: O mass and correction mass (B + I); "15" and "way" lead, below the 0.3 floor
    correction = [0.0, 0.0, 0.02, 0.17, 0.05, 0.03, 0.18, 0.0, 0.0, 0.0]
    rows = [[1.0, 0.0, 0.0]] + [[1 - c, c / 2, c / 2] for c in correction] + [[1.0, 0.0, 0.0]]
    span = likeliest("CORRECTION", np.array(rows), tags, _encoded(message, words), message)
    assert span is not None and span.text == "15 km each way"
    nothing = np.array([[1.0, 0.0, 0.0]] * len(rows))
    assert likeliest("CORRECTION", nothing, tags, _encoded(message, words), message) is None
