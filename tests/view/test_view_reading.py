"""The viewer shows the reading: accuracy per field, what each failure failed on, the cases a
gold run left out, and why moved cases moved."""

from __future__ import annotations

from pathlib import Path

from evals.dataset import load_suite
from evals.runner import EvalOptions, RunConfig, run_eval
from evals.runner.gold import GOLD
from pipeline.providers.scripted import ScriptedProvider, ScriptEntry
from tests.evals.conftest import stand_in, write_yaml

TEA = "I like green tea"
SUITE = {"name": "talks", "target": "conversation", "cases": [
    {"id": "misread", "turns": [
        {"message": TEA, "reading": [{"intent": "remember_about_me",
                                       "params": {"personal_fact": "You like green tea"}}]},
        {"message": "yes", "reading": [{"intent": "remember_about_me", "relation": "confirm"}],
         "expect": {"action": "committed"}},
    ]},
    {"id": "unread", "turns": [{"message": TEA, "expect": {"action": "held"}}]},
]}  # fmt: skip


def test_run_page_shows_reading_accuracy_and_what_each_failure_failed_on(client, root, tmp_path):
    suite = load_suite(write_yaml(tmp_path / "talks.yaml", SUITE))
    misread = ScriptedProvider([
        ScriptEntry(TEA, "remember_about_me", {"personal_fact": "You like green tea"}),
        ScriptEntry("yes", "general_conversation", {}, after="remember_about_me"),
    ])  # fmt: skip
    out = run_eval(
        EvalOptions(
            RunConfig([suite], ["scripted"], concurrency=1),
            progress=False,
            registry=stand_in(misread),
        )
    )
    text = client.get(f"/runs/{out.run.run_id}").text
    assert 'id="reading"' in text and "reading: provider;" in text
    assert "<td>relation</td>" in text and "Decision failed" in text
    assert "reading: turn 2: intent: [&#39;general_conversation&#39;]" in text
    case = client.get(
        f"/runs/{out.run.run_id}/case",
        params={"suite": "talks", "case": "misread", "provider": "scripted"},
    )
    assert "Reading (against gold)" in case.text and "gold &#39;confirm&#39;" in case.text
    assert "<b>Failed on:</b> reading: turn 2: intent:" in case.text
    gold = run_eval(
        EvalOptions(RunConfig([suite], [GOLD], concurrency=1, reading=GOLD), progress=False)
    )
    page = client.get(f"/runs/{gold.run.run_id}").text
    assert "reading: gold (the suites' gold readings replayed, template replies)" in page
    assert "1 case(s) not runnable under <code>--reading gold</code>" in page
    assert "turn 1 has no gold reading" in page
    compared = client.get("/compare", params={"a": gold.run.run_id, "b": out.run.run_id})
    assert compared.status_code == 200 and 'id="moved"' in compared.text
    assert Path(root).is_dir()
