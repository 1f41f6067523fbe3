"""A comparison names every provenance difference and credits a finding to the prompt only when
the prompt is the one thing that changed."""

# ruff: noqa: F811  (ten_cases is a fixture)
from __future__ import annotations

import json

from typer.testing import CliRunner

from evals.cli import app
from evals.report import build_report
from evals.report.provenance import Attribution, differences, run_provenance
from evals.runner import EvalOptions, RunConfig, run_eval
from tests.evals.conftest import stand_in
from tests.evals.test_eval_report import Knows, ten_cases  # noqa: F401  (fixture)

BASE, NEW = "20260101-000000-0001", "20260101-000000-0002"


class Model(Knows):
    def __init__(self, right: set[str], model: str) -> None:
        super().__init__(right)
        self.model = model


def _run(suite, right, run_id, model="knows-fixture", provider="scripted", variant=None):
    answers = Model({f"fact {i}" for i in right}, model)
    cfg = RunConfig([suite], [provider], variants=[variant or {}], use_cache=False)
    registry = stand_in(answers, f"{provider} (fixture answers, not a model)")
    return run_eval(EvalOptions(cfg, run_id=run_id, progress=False, registry=registry))


def test_a_model_change_is_not_credited_to_the_prompt(ten_cases):
    _run(ten_cases, {0, 1}, BASE, model="smollm2-360m")
    _run(ten_cases, set(range(1, 10)), NEW, model="qwen2.5-1.5b")
    built = build_report(NEW, compare=BASE)
    record = built.comparison.records[0]
    assert record["attribution"] == "model changed: cannot attribute (finding better)"
    assert record["provenance"]["changed"] == ["model"]
    assert "finding: better" not in record["sentence"]
    md = built.markdown.read_text()
    assert "| smollm2-360m → qwen2.5-1.5b |" in md
    assert "model: smollm2-360m → qwen2.5-1.5b" in md
    # compared on purpose, the finding names the models
    built = build_report(NEW, compare=BASE, allow=frozenset({"model"}))
    assert built.comparison.records[0]["attribution"] == (
        "finding: better (model smollm2-360m → qwen2.5-1.5b)"
    )


def test_the_cli_says_what_changed_and_takes_allow_change(ten_cases):
    _run(ten_cases, {0, 1}, BASE, model="smollm2-360m")
    _run(ten_cases, set(range(1, 10)), NEW, model="qwen2.5-1.5b")
    result = CliRunner().invoke(app, ["report", NEW, "--compare", BASE, "--json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)["comparison"]["comparisons"][0]
    assert record["attribution"].startswith("model changed: cannot attribute")
    assert "  changed besides the cases: model: smollm2-360m → qwen2.5-1.5b" in result.stderr
    allowed = CliRunner().invoke(
        app, ["report", NEW, "--compare", BASE, "--allow-change", "model", "--json"]
    )
    record = json.loads(allowed.stdout)["comparison"]["comparisons"][0]
    assert record["attribution"] == "finding: better (model smollm2-360m → qwen2.5-1.5b)"
    bad = CliRunner().invoke(app, ["report", NEW, "--compare", BASE, "--allow-change", "modle"])
    assert bad.exit_code != 0 and "'modle' is not a dimension" in bad.output


def test_a_prompt_change_alone_is_a_prompt_finding(ten_cases):
    _run(ten_cases, {0, 1}, BASE, provider="claude", variant={"classifier": "v2"})
    _run(ten_cases, set(range(1, 10)), NEW, provider="claude", variant={"classifier": "v3"})
    record = build_report(NEW, compare=BASE).comparison.records[0]
    assert record["provenance"]["changed"] == ["prompt"]
    assert record["attribution"] == "finding: better (prompt)"


def test_provenance_reads_weights_settings_suite_sample_and_commit():
    meta = {
        "git": {"commit": "a" * 40, "dirty": True},
        "config": {"provider_options": {"x": {"seed": "3", "api_key": "sk-secret"}}},
        "suite_info": [{"name": "s", "cases_sha256": "f" * 64}],
    }
    row = {"suite": "s", "provider": "x", "variant": "active", "status": "pass",
           "model": "m", "weights_sha256": "b" * 64, "prompt": {"classifier": "v2"},
           "sample": {"n": 5, "of": 10, "seed": 1}}  # fmt: skip
    found = run_provenance(meta, [row])[("s", "x", "active")]
    assert found["weights"] == "b" * 12
    assert found["settings"] == "api_key=***, seed=3"
    assert found["suite"] == "f" * 12 and found["sample"] == "5 of 10, seed 1"
    assert found["commit"] == "a" * 12 + " (dirty)"
    other = dict(found, weights="c" * 12, prompt="classifier=v3")
    credit = Attribution(differences(found, other), frozenset())
    assert credit.changed == ["weights", "prompt"]
    assert credit.label("finding: worse") == (
        "weights and prompt changed: cannot attribute (finding worse)"
    )
    assert credit.label("within noise").startswith("weights and prompt changed")


def test_two_providers_are_paired_case_by_case(ten_cases):
    _run(ten_cases, {0, 1}, BASE, provider="scripted", model="rules")
    _run(ten_cases, set(range(1, 10)), NEW, provider="claude", model="reader")
    assert build_report(NEW, compare=BASE).comparison.changes.empty  # no provider in common
    paired = CliRunner().invoke(
        app, ["report", NEW, "--compare", BASE, "--pair-provider", "claude=scripted", "--json"]
    )
    assert paired.exit_code == 0, paired.output
    record = json.loads(paired.stdout)["comparison"]["comparisons"][0]
    assert record["provider"] == "claude"
    assert record["attribution"].startswith("finding: better")
    assert "model rules → reader" in record["attribution"]
    for bad, said in (
        (["--pair-provider", "claude"], "is not THIS=BASELINE"),
        (["--pair-provider", "=scripted"], "is not THIS=BASELINE"),
    ):
        result = CliRunner().invoke(app, ["report", NEW, "--compare", BASE, *bad])
        assert result.exit_code != 0 and said in result.output
    alone = CliRunner().invoke(app, ["report", NEW, "--pair-provider", "claude=scripted"])
    assert alone.exit_code != 0 and "applies to a comparison" in alone.output
