"""The compaction suite's Claude path on a synthetic cassette: the threshold counted with
count_tokens, the summary written by Claude, and the rubric judged by Claude — scripted answers
(model `synthetic-fixture`), replayed with no key and no network."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from evals.dataset.compaction import CompactionCase
from evals.runner.compaction import run_compaction
from evals.runner.providers import Bound
from evals.runner.sandbox import Sandbox
from evals.scorers import COMPACTION
from pipeline.prompting import default_library
from pipeline.providers.registry import Providers

pytestmark = [pytest.mark.vcr, pytest.mark.block_network]

TALK = [
    "I finally got allotment plot 14 at the Greenhill site, the waiting list took two years.",
    "The old tenant left a broken shed, so my neighbour Ray and I put up a new one on Saturday.",
    "The council still hasn't fitted the water meter, I emailed them on Monday about it.",
    "Ray says they usually take three weeks, which means no watering until the end of the month.",
    "I'm planting garlic and broad beans first, they cope with a dry start better than most.",
    "My granddaughter Edie wants a row of sunflowers, she's picked the giant Russian ones.",
    "The soil is heavy clay, so I'm digging in two barrows of manure from the stables.",
    "I have to pay the rent of 48 pounds by the first of the month at the site office.",
    "Could you ask me on Friday whether the council replied about the meter?",
    "Thanks. The robin that follows me around the plot has become my best friend.",
]


def _case() -> CompactionCase:
    turns: list[dict[str, str]] = []
    for said in TALK:
        turns += [{"operator": said}, {"companion": "That sounds good — tell me more."}]
    return CompactionCase.model_validate(
        {
            "id": "zofia-allotment",
            "person": "Zofia",
            "turns": turns,
            "expect": {
                "facts": [["plot 14"]],
                "threads": [["water meter"]],
                "commitments": [["Friday"]],
            },
        }
    )


def test_synthetic_compaction_is_counted_summarized_and_judged(
    claude: Callable[..., Providers],
) -> None:
    providers = claude()
    bound = Bound(
        "claude", providers.label, providers.model, "", None, None, default_library(),
        summarizer=providers.summarizer,
    )  # fmt: skip
    sandbox = Sandbox()
    try:
        outcome = run_compaction(_case(), bound, sandbox)
    finally:
        sandbox.close()
    assert outcome.error is None
    got = outcome.got
    assert got["summarizer"] == "claude synthetic-fixture"
    assert got["compactions"] == [
        {"after_turn": 20, "folded_turns": 18, "summarizer": "claude synthetic-fixture",
         "measured_by": "count_tokens"}
    ]  # fmt: skip
    assert got["held_facts"] == ["You rent allotment plot 14"]
    assert got["rubric"]["judge"] == "synthetic-fixture"
    assert [i["present"] for i in got["rubric"]["items"]] == [True, True, True]
    families = sorted(r.family for r in outcome.prompt_refs)
    assert families == ["compaction/judge", "compaction/personal_assistant"]
    score = COMPACTION(_case().expect, got)
    assert score.passed, score.why
    assert [c.name for c in score.checks][-1] == "rubric faithful"
