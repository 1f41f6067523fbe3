"""The reader's corpus: apart from evaluation, well formed, and reproducible from its seed."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from pipeline.intents.taxonomy import INTENTS
from training import build
from training.answers import offers_answer
from training.schema import PENDING, PROFILE_FIELDS, RELATIONS, SPAN_KINDS, normalised

FIELDS = {"id", "source", "licence", "style", "context", "message", "labels", "split"}


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    return build.read_corpus()


def test_normalised_sets_case_spacing_punctuation_and_emoji_aside() -> None:
    assert normalised("That's  RIGHT!! 👍") == normalised("thats right")
    assert normalised("👍") != normalised("❌")  # emoji-only messages are compared as typed
    assert normalised("yes") != normalised("yes please")


def test_no_evaluation_message_is_in_the_corpus(corpus: list[dict]) -> None:
    evaluation = build.evaluation_messages()
    assert len(evaluation) > 500  # the suites and held-out sets were read
    leaked = sorted({r["message"] for r in corpus if normalised(r["message"]) in evaluation})
    assert leaked == []


def test_no_local_example_is_in_the_corpus(corpus: list[dict]) -> None:
    examples = build.example_messages()
    assert len(examples) > 300
    assert sorted({r["message"] for r in corpus if normalised(r["message"]) in examples}) == []


def test_the_generator_drops_a_banned_message() -> None:
    free = build.generated(300, 7, set())
    banned = {normalised(free[0]["message"])}
    again = build.generated(300, 7, banned)
    assert all(normalised(r["message"]) not in banned for r in again)


def test_rows_are_well_formed(corpus: list[dict]) -> None:
    assert len(corpus) > 10_000
    for row in corpus:
        assert set(row) == FIELDS, row["id"]
        labels, context = row["labels"], row["context"]
        assert context["pending"] in PENDING
        assert labels["relation"] in RELATIONS
        assert (labels["relation"] == "none") == (context["pending"] == "none"), row["id"]
        assert labels["intent"] in INTENTS
        assert labels["profile_field"] in PROFILE_FIELDS
        for span in labels["spans"]:
            assert span["kind"] in SPAN_KINDS
            assert row["message"][span["start"] : span["end"]] == span["text"], row["id"]
            assert span["text"] == span["text"].strip() and span["text"]
        for act in labels["acts"]:
            assert act["intent"] in INTENTS
            assert act["span"] is None or 0 <= act["span"] < len(labels["spans"])


def test_each_source_records_its_licence(corpus: list[dict]) -> None:
    licences = {(r["source"], r["licence"]) for r in corpus}
    assert {s for s, _ in licences} == {"generated", "sgd"}
    assert len(licences) == 2
    assert any("CC BY-SA 4.0" in lic for s, lic in licences if s == "sgd")


def test_the_corpus_covers_every_style_and_relation(corpus: list[dict]) -> None:
    styles = Counter(part for r in corpus for part in r["style"].split("+"))
    for style in (
        "texting",
        "voice",
        "formal_letter",
        "emoji",
        "code_switch",
        "hedge",
        "typos",
        "sgd",
    ):
        assert styles[style] >= 100, style
    relations = Counter(r["labels"]["relation"] for r in corpus)
    assert all(relations[r] >= 200 for r in RELATIONS), relations
    kinds = Counter(s["kind"] for r in corpus for s in r["labels"]["spans"])
    assert all(kinds[k] >= 200 for k in SPAN_KINDS), kinds


def test_the_committed_generation_reproduces_from_its_seed(corpus: list[dict]) -> None:
    committed = [r for r in corpus if r["source"] == "generated"][:400]
    banned = build.evaluation_messages() | build.example_messages()
    fresh = build.generated(400, 34, banned)
    assert [{k: v for k, v in r.items() if k != "split"} for r in committed] == json.loads(
        json.dumps(fresh)
    )


def test_all_typed_with_a_digit_is_every_item_never_that_item() -> None:
    rng = random.Random(3)
    seen = 0
    for _ in range(400):
        _, draft = offers_answer(rng)
        text = "".join(t for t, _ in draft.segments)
        if text.startswith("all ") and any(ch.isdigit() for ch in text):
            seen += 1
            assert draft.chosen == "all", text
    assert seen > 5


def test_splits_keep_duplicates_together(corpus: list[dict]) -> None:
    by_message: dict[str, set[str]] = {}
    for row in corpus:
        by_message.setdefault(normalised(row["message"]), set()).add(row["split"])
    assert all(len(splits) == 1 for splits in by_message.values())


def test_fact_templates_are_broad() -> None:
    from training.templates import TEMPLATES

    assert len(TEMPLATES) >= 150
    values = {value for _, _, pool, _ in TEMPLATES for value in pool}
    assert len(values) >= 600
    assert sum(" " in value for value in values) >= 150  # multi-word values, not just words


def test_some_slot_values_are_words_of_the_encoders_vocabulary() -> None:
    from training.facts import random_fact
    from training.templates import TEMPLATES
    from training.vocab import TOKENIZER

    vocab = set(json.loads(TOKENIZER.read_text(encoding="utf-8"))["model"]["vocab"])
    rng = random.Random(5)
    facts = [random_fact(rng) for _ in range(2000)]
    stand_ins = [f.value for f in facts if f.value not in TEMPLATES[f.template][2]]
    assert 0.2 < len(stand_ins) / len(facts) < 0.4
    words = [w.lower() for value in stand_ins for w in value.split() if w not in ("a", "an", "the")]
    in_vocab = [w for w in words if w in vocab]
    assert len(in_vocab) > 0.6 * len(words)  # whole vocabulary words; the rest glued from pieces
    assert len(in_vocab) < len(words)
