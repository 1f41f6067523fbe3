"""The compaction suite on the Claude provider against the loopback server: the summary is
Claude's (its threshold counted with count_tokens), and Claude judges it item by item and for
faithfulness. The answers are scripted (model `synthetic-fixture`), never a model's."""

from __future__ import annotations

import json
from typing import Any

import httpx2

from evals.loopback import Answer, LoopbackServer
from evals.runner.compaction import run_compaction
from evals.runner.judge import FAMILY
from evals.runner.providers import Bound
from evals.runner.sandbox import Sandbox
from evals.scorers import COMPACTION
from pipeline.prompting import default_library
from pipeline.providers.claude import claude_providers
from tests.evals.test_compaction_suite import _case

SUMMARY = {"summary": "Ana's sister Maud lands in Leeds on Sunday at 6pm.", "facts": []}
SUMMARISE = Answer(
    kind="classify",
    system_contains="You are summarising a conversation for a personal assistant",
    tool_input=SUMMARY,
)


def _verdicts(present: list[bool], faithful: bool = True) -> dict[str, Any]:
    return {
        "items": [
            {"number": n, "present": p, "evidence": "Maud lands in Leeds" if p else ""}
            for n, p in enumerate(present, start=1)
        ],
        "faithful": faithful,
        "unsupported": [] if faithful else ["Maud lives in Leeds"],
    }


def _judged(verdicts: dict[str, Any]) -> tuple[Any, list[tuple[str, dict[str, Any]]]]:
    judge = Answer(
        kind="classify", system_contains="You are grading a summary", tool_input=verdicts
    )
    sent: list[tuple[str, dict[str, Any]]] = []

    def keep(request: httpx2.Request) -> None:
        sent.append((request.url.path, json.loads(request.content)))

    sandbox = Sandbox()
    with (
        LoopbackServer([SUMMARISE, judge]) as server,
        httpx2.Client(event_hooks={"request": [keep]}) as http,
    ):
        library = default_library()
        providers = claude_providers(
            api_key="loopback", base_url=server.url, max_retries=0, http_client=http
        )
        bound = Bound(
            "claude", "claude", "", "", None, None, library, summarizer=providers.summarizer
        )
        try:
            outcome = run_compaction(_case(), bound, sandbox)
        finally:
            sandbox.close()
    return outcome, sent


def test_claude_summarizes_counts_and_judges_every_item() -> None:
    outcome, sent = _judged(_verdicts([True, True, True]))
    assert outcome.error is None
    got = outcome.got
    assert got["summary"] == SUMMARY["summary"]
    assert got["summarizer"] == "claude synthetic-fixture"
    assert got["compactions"][0]["measured_by"] == "count_tokens"
    assert [path for path, _ in sent] == [
        "/v1/messages/count_tokens",
        "/v1/messages",
        "/v1/messages",
    ]  # count, summarize, judge
    judged = json.dumps(sent[-1][1]["messages"])
    assert "Maud lands in Leeds on Sunday at 6pm" in judged  # the conversation and the summary
    assert "1. (fact) Maud" in judged and "3. (thread) sunday" in judged
    assert got["rubric"]["judge"] == "synthetic-fixture" and got["rubric"]["faithful"] is True
    assert FAMILY in {r.family for r in outcome.prompt_refs}
    assert outcome.usage.input_tokens > 0 and outcome.usage.output_tokens > 0
    score = COMPACTION(_case().expect, got)
    assert score.passed
    assert [c.name for c in score.checks].count("rubric fact") == 2


def test_the_judges_no_fails_a_case_the_phrases_pass() -> None:
    outcome, _ = _judged(_verdicts([True, False, True], faithful=False))
    score = COMPACTION(_case().expect, outcome.got)
    assert not score.passed
    assert "judge: summary lacks fact 'Leeds'" in score.why
    assert "judge: unfaithful (Maud lives in Leeds)" in score.why


def test_a_judge_answer_missing_an_item_is_an_error_not_a_verdict() -> None:
    outcome, _ = _judged(_verdicts([True, True]))
    assert outcome.error is not None
    assert "rubric" in outcome.error and "no verdict for item(s) [3]" in outcome.error
