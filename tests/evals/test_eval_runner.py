"""The runner: rows with provenance, errors apart from wrong answers, gates, cache, resume, retry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.dataset import load_suite
from evals.dataset.models import Gate
from evals.runner import EvalOptions, RunConfig, RunDir, plan, run_eval, summarize
from evals.runner.results import read_rows
from tests.evals.conftest import CLASSIFY_SUITE, Counting, scripted, stand_in

ROW_FIELDS = {
    "run_id", "suite", "target", "case_id", "case_hash", "tags", "input", "provider", "provider_label",
    "model", "variant", "prompt", "prompts", "epoch", "expected", "got", "status", "pass",
    "error", "why", "checks", "scorer", "latency_ms", "tokens", "truncated", "cost_usd",
    "cassette", "cached", "git", "finished_at", "confidences",
}  # fmt: skip


def config(suite_path, **extra):
    return RunConfig([load_suite(suite_path)], ["scripted"], concurrency=2, **extra)


def statuses(rows):
    return {r["case_id"]: r["status"] for r in rows}


def test_rows_carry_provenance_and_errors_are_not_wrong_answers(
    classify_suite, script_file, reports_root
):
    out = run_eval(EvalOptions(config(classify_suite, script=script_file), progress=False))
    rows = out.run.rows()
    assert len(rows) == 4
    assert set(rows[0]) == ROW_FIELDS
    assert statuses(rows) == {
        "shellfish": "pass", "refined": "pass", "wife-vegetarian": "fail", "unscripted": "error",
    }  # fmt: skip
    wrong = next(r for r in rows if r["case_id"] == "wife-vegetarian")
    assert wrong["expected"] == {"intent": "remember_about_me"}
    assert wrong["got"]["intent"] == "general_conversation"
    assert wrong["why"] == "intent general_conversation, expected remember_about_me"
    assert wrong["scorer"] == {"name": "classify_intent_params", "version": 1}
    assert wrong["provider_label"] == "scripted (fixture answers, not a model)"
    assert set(wrong["git"]) == {"commit", "dirty"}
    errored = next(r for r in rows if r["case_id"] == "unscripted")
    assert "no scripted entry" in errored["error"]

    (group,) = out.groups
    assert (group.n, group.passed, group.errors, group.scored) == (4, 2, 1, 3)
    assert group.accuracy == pytest.approx(2 / 3)
    assert group.gate_failures == (
        "tiny_classify on scripted: accuracy 0.667 < gate 0.900",
        "tiny_classify on scripted: 1 errors > bound 0",
    )
    assert out.run.path.parent.parent == reports_root


def test_an_exception_is_an_error_row_and_the_run_goes_on(classify_suite):
    provider = Counting(scripted(), raise_on={"I'm allergic to shellfish"})
    out = run_eval(EvalOptions(config(classify_suite), progress=False, registry=stand_in(provider)))
    rows = {r["case_id"]: r for r in out.run.rows()}
    assert rows["shellfish"]["status"] == "error"
    assert rows["shellfish"]["error"] == "TimeoutError: provider timed out"
    assert rows["refined"]["status"] == "pass"


def test_gate_with_its_own_error_bound(make_suite):
    suite = {
        "name": "bounded",
        "target": "classify",
        "gate": {"accuracy": 0.5, "max_error_rate": 0.5},
        "cases": [
            {"id": "ok", "message": "The soil pH should be 6.5", "project": "Garden",
             "expect": {"intent": "add_knowledge"}},
            {"id": "err", "message": "unscripted", "expect": {"intent": "add_knowledge"}},
        ],
    }  # fmt: skip
    provider = Counting(scripted())
    out = run_eval(
        EvalOptions(config(make_suite(suite)), progress=False, registry=stand_in(provider))
    )
    (group,) = out.groups
    assert group.accuracy == 1.0 and group.errors == 1
    assert group.gate_passed

    suite["gate"] = {"accuracy": 0.5, "max_errors": 0}
    out = run_eval(
        EvalOptions(config(make_suite(suite)), progress=False, registry=stand_in(provider))
    )
    assert out.groups[0].gate_failures == ("bounded on scripted: 1 errors > bound 0",)

    suite["gate"] = {"accuracy": 0.5}  # no bound of its own: errors must be 0
    out = run_eval(
        EvalOptions(config(make_suite(suite)), progress=False, registry=stand_in(provider))
    )
    assert out.groups[0].gate_failures == ("bounded on scripted: 1 errors > bound 0",)


def test_critical_failures_count_failed_cases_tagged_critical_and_have_a_bound():
    def row(case: str, status: str, tags: list[str]) -> dict[str, object]:
        return {"suite": "s", "provider": "p", "variant": "active", "target": "classify",
                "case_id": case, "status": status, "tags": tags}  # fmt: skip

    rows = [
        row("a", "fail", ["critical"]),
        row("b", "error", ["critical"]),  # an error is not a failed answer
        row("c", "fail", ["other"]),
        row("d", "pass", ["critical"]),
    ]
    (strict,) = summarize(rows, {"s": Gate(critical_failures=0, max_errors=1)})
    assert strict.critical_failures == 1
    assert strict.gate_failures == ("s on p: critical_failures 1 > bound 0",)
    assert strict.as_json()["critical_failures"] == 1
    (lenient,) = summarize(rows, {"s": Gate(critical_failures=1, max_errors=1)})
    assert lenient.gate_passed


def test_cache_hits_skip_the_provider_unless_no_cache(classify_suite):
    provider = Counting(scripted())
    first = run_eval(
        EvalOptions(config(classify_suite), progress=False, registry=stand_in(provider))
    )
    assert provider.calls == 4
    second = run_eval(
        EvalOptions(config(classify_suite), progress=False, registry=stand_in(provider))
    )
    # the three answers are cached; the error is not, so it is asked again
    assert provider.calls == 5
    assert {r["case_id"]: r["cached"] for r in second.run.rows()} == {
        "shellfish": True, "refined": True, "wife-vegetarian": True, "unscripted": False,
    }  # fmt: skip
    assert statuses(second.run.rows()) == statuses(first.run.rows())
    run_eval(
        EvalOptions(
            config(classify_suite, use_cache=False), progress=False, registry=stand_in(provider)
        )
    )
    assert provider.calls == 9


def test_an_answer_asked_again_after_an_error_says_so_in_its_row_and_the_comparison(
    classify_suite,
):
    from evals.report import build_report

    flaky = Counting(scripted(), raise_on={"I'm allergic to shellfish"})
    first = run_eval(EvalOptions(config(classify_suite), progress=False, registry=stand_in(flaky)))
    assert "asked_again_after_error" not in next(iter(first.run.rows()))
    healed = Counting(scripted())
    second = run_eval(
        EvalOptions(config(classify_suite), progress=False, registry=stand_in(healed))
    )
    rows = {r["case_id"]: r for r in second.run.rows()}
    assert rows["shellfish"]["cached"] is False
    assert rows["shellfish"]["asked_again_after_error"] == "TimeoutError: provider timed out"
    assert "asked_again_after_error" not in rows["refined"]  # answered from the cache
    comparison = build_report(second.run.run_id, compare=first.run.run_id).comparison
    assert comparison is not None
    (record,) = comparison.records
    # scored cases of each run asked again after an error (shellfish errored in the baseline,
    # so it is not one of the shared cases, but the count says why the runs differ on it)
    assert record["asked_again_after_error"] == {"this_run": 1, "baseline": 0}
    assert "Asked again after an error" in comparison.changes.columns


def test_cache_is_keyed_by_case_content(classify_suite, make_suite):
    provider = Counting(scripted())
    run_eval(EvalOptions(config(classify_suite), progress=False, registry=stand_in(provider)))
    data = json.loads(json.dumps(CLASSIFY_SUITE))
    data["cases"][0]["tags"] = ["changed"]  # a changed case is a different case
    provider.calls = 0
    run_eval(
        EvalOptions(
            config(make_suite(data, "changed")), progress=False, registry=stand_in(provider)
        )
    )
    assert provider.calls == 2  # the changed case and the uncacheable error


def test_interrupted_run_resumes_without_losing_or_repeating(classify_suite):
    interrupted = Counting(scripted(), interrupt_after=2)
    cfg = RunConfig([load_suite(classify_suite)], ["scripted"], concurrency=1, epochs=2)
    with pytest.raises(KeyboardInterrupt):
        run_eval(EvalOptions(cfg, run_id="run-a", progress=False, registry=stand_in(interrupted)))
    run = RunDir.existing("run-a")
    kept = run.rows()
    assert len(kept) == 2
    # a torn line, as a kill during a write leaves, is dropped on resume
    with run.results_path.open("a", encoding="utf-8") as handle:
        handle.write('{"run_id": "run-a", "suite": "tiny_cl')

    fresh = Counting(scripted())
    out = run_eval(EvalOptions(resume="run-a", progress=False, registry=stand_in(fresh)))
    assert out.skipped == 2 and out.ran == 6
    rows = read_rows(run.results_path)
    keys = [(r["case_id"], r["epoch"]) for r in rows]
    assert len(keys) == len(set(keys)) == 8
    assert rows[:2] == kept


def test_retry_errors_reruns_only_errored_cases(classify_suite):
    flaky = Counting(scripted(), raise_on={"I'm allergic to shellfish", "no, just shrimp"})
    first = run_eval(
        EvalOptions(
            config(classify_suite), run_id="run-b", progress=False, registry=stand_in(flaky)
        )
    )
    errored = sorted(r["case_id"] for r in first.run.rows() if r["status"] == "error")
    assert errored == ["refined", "shellfish", "unscripted"]
    healed = Counting(scripted())
    out = run_eval(EvalOptions(retry_errors="run-b", progress=False, registry=stand_in(healed)))
    assert out.ran == 3 and healed.calls == 3
    assert statuses(out.rows) == {
        "shellfish": "pass", "refined": "pass", "wife-vegetarian": "fail", "unscripted": "error",
    }  # fmt: skip
    assert len(out.run.rows()) == 7  # history kept; the latest row of each case counts


def test_plan_covers_providers_variants_and_epochs_and_deterministic_targets_run_once(
    classify_suite,
):
    truncation = load_suite(Path("evals/suites/truncation.yaml"))
    cfg = RunConfig(
        [load_suite(classify_suite), truncation],
        ["scripted", "local"],
        variants=[{"classifier": "v1"}, {"classifier": "v2"}],
        epochs=3,
    )
    items = plan(cfg)
    assert len(items) == 4 * 2 * 2 * 3 + len(truncation.cases)  # memory_block runs once
    assert {i.provider for i in items if i.suite.name == "truncation"} == {"pipeline"}


def test_memory_block_and_forget_targets_run_through_a_real_store(make_suite):
    block = {
        "name": "tiny_block",
        "target": "memory_block",
        "cases": [
            {"id": "order", "memories": [
                {"content": "You live in Miami", "age": "2 weeks"},
                {"content": "You're allergic to shellfish", "age": "3 days"},
                {"content": "Held thing", "age": "1 hour", "state": "held"}],
             "expect": {"order": ["shellfish", "Miami"], "excludes": ["Held thing"],
                        "includes": ["- You live in Miami (noted 2 weeks ago)"]}},
        ],
    }  # fmt: skip
    forget = {
        "name": "tiny_forget",
        "target": "forget_match",
        "cases": [
            {"id": "tie", "message": "Miami", "memories": [
                {"content": "You live in Miami", "age": "2 weeks"},
                {"content": "You moved to Miami in 2020", "age": "3 days"},
                {"content": "You visited Miami once", "age": "3 days", "state": "retracted"}],
             "expect": {"action": "ambiguous",
                        "matched": ["You moved to Miami in 2020", "You live in Miami"]}},
        ],
    }  # fmt: skip
    cfg = RunConfig([load_suite(make_suite(block)), load_suite(make_suite(forget))], ["scripted"])
    out = run_eval(EvalOptions(cfg, progress=False, registry=stand_in(Counting(scripted()))))
    assert statuses(out.rows) == {"order": "pass", "tie": "pass"}
    assert {r["provider"] for r in out.rows} == {"pipeline"}
    assert {r["provider_label"] for r in out.rows} == {"pipeline (deterministic code, no model)"}


class OneHotEmbedder:
    """A stand-in embedding model: each text is the unit vector of its first word's bucket."""

    model_name = "one-hot-fixture"
    dim = 16

    def embed(self, texts):
        import numpy as np

        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            out[i, sum(map(ord, (text.split() or [""])[-1].lower())) % self.dim] = 1.0
        return out


def test_forget_match_also_runs_on_a_provider_that_lends_an_embedder(make_suite):
    forget = {
        "name": "tiny_forget",
        "target": "forget_match",
        "cases": [
            {"id": "exact", "message": "Miami", "memories": [
                {"content": "You live in Miami", "age": "2 weeks"},
                {"content": "You like tea", "age": "3 days"}],
             "expect": {"action": "confirm_retraction", "matched": ["You live in Miami"]}},
        ],
    }  # fmt: skip
    lending = stand_in(Counting(scripted()), embedder=OneHotEmbedder())
    cfg = RunConfig([load_suite(make_suite(forget))], ["scripted"])
    out = run_eval(EvalOptions(cfg, progress=False, registry=lending))
    by_provider = {r["provider"]: r for r in out.rows}
    assert set(by_provider) == {"pipeline", "scripted"}
    assert by_provider["scripted"]["model"] == "one-hot-fixture"
    assert all(r["status"] == "pass" for r in out.rows)

    plain = run_eval(EvalOptions(cfg, progress=False, registry=stand_in(Counting(scripted()))))
    assert {r["provider"] for r in plain.rows} == {"pipeline"}
