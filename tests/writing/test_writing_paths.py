"""The writing constraints where memory text is written: compaction's durable facts and a
closed conversation's narrative are trimmed or refused, and their first-pass failures kept."""

from __future__ import annotations

import json

from pipeline.compaction import admit_facts
from pipeline.conversations.compress import CompressionInput, checked_narrative, compress
from pipeline.conversations.stages import FALLBACK
from pipeline.english import ENGLISH
from pipeline.lexicon import NO_LEXICON
from pipeline.memory.writing import admit
from pipeline.prompting import default_library
from tests.conversations.helpers import FakeModel

TURNS = (
    ("operator", "I decided to take the Lisbon job. Maria will send the contract on Friday."),
    ("companion", "Congratulations. So you're waiting on Maria for the contract."),
    ("operator", "Yes, and I still have to tell my landlord I'm moving out."),
)


def test_admit_keeps_a_passing_item_and_says_it_passed() -> None:
    got = admit("You're allergic to cats", "second", lexicon=ENGLISH)
    assert got.first_pass and got.text == "You're allergic to cats"


def test_admit_trims_what_only_length_breaks_and_counts_it() -> None:
    got = admit("You sing in a choir. " + "You love it. " * 30, "second", lexicon=ENGLISH)
    assert not got.first_pass and got.text is not None
    assert got.text == "You sing in a choir. You love it."


def test_admit_refuses_what_trimming_cannot_fix() -> None:
    got = admit("I'm allergic to cats", "second", lexicon=ENGLISH)
    assert not got.first_pass and got.text is None
    assert got.first.problems == ("in the person's first person, not addressed to them",)


def test_compaction_facts_are_trimmed_refused_and_capped_at_three() -> None:
    long = "You are renovating your kitchen. " + "You chose matte tiles for it. " * 12
    checked = admit_facts(
        ("I'm allergic to cats", long, "You prefer tea", "You have a dog"), lexicon=ENGLISH
    )
    assert len(checked) == 3
    assert [c.first_pass for c in checked] == [False, False, True]
    assert checked[0].text is None
    assert checked[1].text == "You are renovating your kitchen. You chose matte tiles for it."


def test_a_model_narrative_in_the_first_person_is_refused_for_the_fallback() -> None:
    model = FakeModel(
        answers={
            "conversation_entities": [json.dumps({k: [] for k in _KINDS})],
            "conversation_narrative": [
                json.dumps({"narrative": "I decided to take the job. I will move soon."})
            ],
            "conversation_routing": [
                json.dumps({"destination": "Your story", "confidence": 0.5, "reasoning": "life"})
            ],
        }
    )
    got = compress(
        CompressionInput(operator_name="Ana", turns=TURNS),
        default_library(),
        model,
        lexicon=ENGLISH,
    )
    assert "I decided" not in got.narrative
    assert got.narrative_problems == ("not in the third person",)
    stage = next(s for s in got.stages if s.stage == "narrative")
    assert stage.method == FALLBACK and stage.error is not None
    assert "writing constraints" in stage.error


def test_a_third_person_narrative_passes_as_written() -> None:
    text = "Ana took the Lisbon job and is waiting on Maria for the contract. Ana must tell the landlord."
    assert checked_narrative(text, lexicon=ENGLISH).first_pass


def test_a_narrative_is_read_with_the_lexicon_it_is_given() -> None:
    text = "I decided to take the job. I will move soon."
    assert not checked_narrative(text, lexicon=ENGLISH).first_pass
    # a bundle that lends no words: only length and sentence count are checked
    assert checked_narrative(text, lexicon=NO_LEXICON).first_pass
    assert admit_facts(("I'm allergic to cats",), NO_LEXICON)[0].text == "I'm allergic to cats"


def test_the_deterministic_narrative_is_checked_and_kept() -> None:
    got = compress(
        CompressionInput(operator_name="Ana", turns=TURNS), default_library(), None, lexicon=ENGLISH
    )
    assert got.narrative  # the last resort is kept; its problems, if any, are recorded
    assert (
        got.narrative_problems == checked_narrative(got.narrative, lexicon=ENGLISH).first.problems
    )


_KINDS = (
    "people",
    "tasks",
    "decisions",
    "waiting_on",
    "questions_resolved",
    "questions_opened",
    "blockers_cleared",
    "insights",
)
