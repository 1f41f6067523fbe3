"""`converse bench eval` reports its figures; the promptfoo bridge answers like our runner."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import load_suite
from evals.export import assertions
from evals.export.bridge import call


def test_bench_eval_json_keys():
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "eval",
            "--json",
            "--cases",
            "30",
            "--latency-cases",
            "8",
            "--latency-ms",
            "5",
            "--concurrency",
            "4",
        ],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["bench"] == "eval"
    assert {"cases_per_s", "overhead_ratio", "n", "machine"} <= set(figures)
    assert figures["n"] == 30 and figures["latency_ideal_s"] == 0.01
    assert figures["cases_per_s"] > 0 and figures["overhead_ratio"] >= 1.0


def test_bridge_answers_classify_and_memory_block(classify_suite, script_file):
    suite = load_suite(classify_suite)
    case = suite.case("refined")
    response = call(
        {"target": "classify", "provider": "scripted", "script": str(script_file)},
        {"case": json.dumps(case.model_dump(mode="json"))},
    )
    assert json.loads(response["output"])["params"]["personal_fact"] == "You're allergic to shrimp"
    assert response["metadata"]["provider"] == "scripted (fixture answers, not a model)"
    unscripted = suite.case("unscripted")
    errored = call(
        {"target": "classify", "provider": "scripted", "script": str(script_file)},
        {"case": json.dumps(unscripted.model_dump(mode="json"))},
    )
    assert "no scripted entry" in errored["error"]

    block_case = {"id": "b", "memories": [{"content": "You live in Miami", "age": "3 days"}],
                  "expect": {"includes": ["- You live in Miami (noted 3 days ago)"]}}  # fmt: skip
    block = call({"target": "memory_block", "provider": "local"}, {"case": json.dumps(block_case)})
    assert block["output"].endswith("- You live in Miami (noted 3 days ago)")


def test_assertions_mirror_expectations(classify_suite):
    case = load_suite(classify_suite).case("refined")
    values = [a.get("value") for a in assertions(case)]
    assert values == [
        None,
        'JSON.parse(output).intent === "remember_about_me"',
        'String((JSON.parse(output).params || {})["personal_fact"] || \'\').toLowerCase().includes("shrimp")',
        '!String((JSON.parse(output).params || {})["personal_fact"] || \'\').toLowerCase().includes("shellfish")',
    ]
