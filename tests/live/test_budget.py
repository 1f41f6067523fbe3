"""--max-cost: each live call is priced before it is sent; the run stops before the bound would
be passed, loses nothing, and --resume finishes it. Everything runs against the synthetic
loopback server (answers labelled synthetic-fixture)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.loopback import Answer, LoopbackServer
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.claude import claude_providers
from pipeline.providers.claude.budget import Budget, BudgetExhausted, BudgetGuard

OK = Answer(kind="classify", tool_input={"intent": "general_conversation"})
HAIKU = "claude-haiku-5-5"


def test_admission_reserves_the_most_a_call_can_cost_worked_by_hand() -> None:
    budget = Budget(0.001)
    # 2,000 input at the dearer of input ($0.10) and cache write ($0.125), 512 out at $0.50
    bound = budget.admit(HAIKU, 2000, 512)
    assert bound == pytest.approx((2000 * 0.125 + 512 * 0.50) / 1e6)
    assert budget.reserved == pytest.approx(bound)
    with pytest.raises(BudgetExhausted, match=r"past the budget of \$0\.001 "):
        budget.admit(HAIKU, 2000, 512)  # two reservations would pass $0.001
    budget.settle(HAIKU, bound, None)  # the call failed: it cost nothing
    assert budget.reserved == pytest.approx(0) and budget.spent == 0


def test_an_unpriced_model_is_refused_rather_than_run_unbounded() -> None:
    with pytest.raises(BudgetExhausted, match="synthetic-model has no price"):
        Budget(100.0).admit("synthetic-model", 10, 10)


def test_a_guarded_call_is_counted_by_the_api_and_charged_at_the_table(tmp_path: Path) -> None:
    budget = Budget(1.0)
    with LoopbackServer([OK]) as server:
        providers = claude_providers(
            api_key="loopback", base_url=server.url, middleware=[BudgetGuard(budget)]
        )
        got = providers.classifier.classify(ClassifyRequest(message="hello"))
    assert got.error is None
    u = got.usage
    by_hand = (
        u.input_tokens * 0.10
        + u.output_tokens * 0.50
        + u.cache_read_input_tokens * 0.01
        + u.cache_creation_input_tokens * 0.125
    ) / 1e6
    assert budget.spent == pytest.approx(by_hand) and by_hand > 0
    assert (budget.counted, budget.estimated) == (1, 0)
    assert budget.reserved == pytest.approx(0)


def test_the_character_estimate_is_used_and_labelled_when_asked_for() -> None:
    budget = Budget(1.0, estimate="characters")
    with LoopbackServer([OK]) as server:
        providers = claude_providers(
            api_key="loopback", base_url=server.url, middleware=[BudgetGuard(budget)]
        )
        providers.classifier.classify(ClassifyRequest(message="hello"))
        assert [s.kind for s in server.seen] == ["classify"]  # no count_tokens request
    assert budget.summary()["input_estimated_from_characters"] == 1


def _suite(tmp_path: Path, n: int) -> Path:
    cases = "".join(
        f"  - {{id: c{i}, message: 'hello {i}', expect: {{intent: general_conversation}}}}\n"
        for i in range(n)
    )
    path = tmp_path / "ten.yaml"
    path.write_text(f"name: ten\ntarget: classify\ndescription: x\ncases:\n{cases}", "utf-8")
    return path


def test_max_cost_stops_before_the_bound_and_resume_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.delenv("CONVERSE_CLAUDE_RPM", raising=False)
    suite = _suite(tmp_path, 10)
    with LoopbackServer([OK]) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "loopback")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        first = CliRunner().invoke(
            app,
            ["eval", "--no-progress", "--no-report", "--no-cache", "--json", "--live",
             "--provider", "claude", "--suite", str(suite), "-j", "1", "--max-cost", "0.002"],
        )  # fmt: skip
        assert first.exit_code == 130, first.output
        payload = json.loads(first.stdout)
        account = payload["budget"]
        assert account["stopped"] and 0 < account["spent_usd"] <= 0.002
        run = tmp_path / "reports" / "runs" / payload["run_id"]
        kept = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
        assert 0 < len(kept) < 10
        assert all(r["status"] == "pass" for r in kept)  # a refused call is never a row
        assert "stopped before the budget of $0.002 would be exceeded" in first.stderr
        second = CliRunner().invoke(
            app,
            ["eval", "--no-progress", "--no-report", "--json", "--resume", payload["run_id"],
             "--max-cost", "1"],
        )  # fmt: skip
    assert second.exit_code == 0, second.output
    rows = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    assert sorted(r["case_id"] for r in rows) == sorted(f"c{i}" for i in range(10))
    assert json.loads(second.stdout)["results"][0]["passed"] == 10


def test_max_cost_without_a_live_claude_call_is_refused_up_front(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["eval", "--provider", "local", "--suite", str(_suite(tmp_path, 1)), "--max-cost", "1"]
    )
    assert result.exit_code != 0
    assert "--max-cost bounds live Claude calls, and this run makes none" in result.output


def test_amounts_are_shown_to_the_cent_or_to_the_places_they_need() -> None:
    from pipeline.providers.claude.prices import dollars

    assert [dollars(v) for v in (1.5, 0.002, 0.000125, 12.0, 0.01)] == [
        "$1.50", "$0.002", "$0.000125", "$12.00", "$0.01"
    ]  # fmt: skip


def test_max_cost_beside_a_cassette_is_refused_before_anything_runs(tmp_path) -> None:
    suite = _suite(tmp_path, 2)
    cassette = tmp_path / "c.yaml"
    cassette.write_text("interactions: []\n")
    refused = CliRunner().invoke(
        app,
        ["eval", "--no-progress", "--provider", "claude", "--suite", str(suite),
         "--cassette", str(cassette), "--max-cost", "1"],
    )  # fmt: skip
    assert refused.exit_code == 2, refused.output
    assert "--max-cost bounds live Claude calls, and --cassette replays them" in refused.stderr
    assert not (tmp_path / "reports" / "runs").exists()
