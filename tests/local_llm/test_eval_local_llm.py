"""`converse eval --provider local-llm` on the small model: rows name the model and the prompt
version, two prompt versions are two variants of one run, and answers are cached by prompt
hash (an unchanged template replays, an edited one asks the model again)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from evals.dataset import load_suite
from evals.runner import EvalOptions, RunConfig, run_eval
from pipeline.prompting import default_library
from pipeline.providers.local_llm.weights import SMOLLM2
from tests.evals.conftest import reports_root, write_yaml
from tests.local_llm.conftest import SMALL, needs_runtime

pytestmark = [needs_runtime, pytest.mark.usefixtures("reports_root")]
__all__ = ["reports_root"]  # runs and the answer cache go to the test's own folder

SUITE = {
    "name": "llm_tiny",
    "target": "classify",
    "cases": [
        {
            "id": "fact",
            "message": "I'm allergic to shellfish",
            "expect": {"intent": "remember_about_me"},
        },
        {
            "id": "chat",
            "message": "thanks, that helps",
            "expect": {"intent": "general_conversation"},
        },
    ],
}


@pytest.fixture
def prompts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "prompts"
    shutil.copytree(default_library().root, root)
    v1 = (root / "classifier" / "v1.j2").read_text(encoding="utf-8")
    (root / "classifier" / "v2.j2").write_text(v1 + "\nBe brief.\n", encoding="utf-8")
    monkeypatch.setenv("CONVERSE_PROMPTS_DIR", str(root))
    return root


def _run(suite: Path, variants: list[dict[str, str]]):
    config = RunConfig(
        [load_suite(suite)],
        ["local-llm"],
        variants=variants,
        concurrency=2,
        provider_options={"local-llm": dict(SMALL)},
    )
    return run_eval(EvalOptions(config, progress=False))


def test_two_prompt_versions_run_side_by_side_and_answers_are_cached_by_prompt_hash(
    tmp_path: Path, prompts: Path
) -> None:
    suite = write_yaml(tmp_path / "llm_tiny.yaml", SUITE)
    first = _run(suite, [{"classifier": "v1"}, {"classifier": "v2"}]).run.rows()
    assert len(first) == 4 and not any(r["cached"] for r in first)
    assert {r["model"] for r in first} == {SMOLLM2.label}
    assert {r["variant"] for r in first} == {"classifier=v1", "classifier=v2"}
    assert all(r["tokens"]["input"] > 1000 for r in first)
    # The small model's answers degrade often (an error row, never a crash); a clean one is cached.
    clean = {r["case_id"] for r in first if r["variant"] == "classifier=v1" and r["error"] is None}
    assert clean, "no clean answer from the small model to check the cache with"
    by_version = {r["prompts"][0]["version"]: r["prompts"][0]["sha256"] for r in first}
    assert by_version["v1"] != by_version["v2"]

    again = _run(suite, [{"classifier": "v1"}]).run.rows()
    assert {r["case_id"] for r in again if r["cached"]} == clean  # errors are asked again
    before = {r["case_id"]: r["got"] for r in first if r["variant"] == "classifier=v1"}
    assert all(r["got"] == before[r["case_id"]] for r in again if r["cached"])

    (prompts / "classifier" / "v2.j2").write_text(
        (prompts / "classifier" / "v1.j2").read_text(encoding="utf-8") + "\nBe terse.\n",
        encoding="utf-8",
    )
    edited = _run(suite, [{"classifier": "v2"}]).run.rows()
    assert not any(r["cached"] for r in edited)
    assert {r["prompts"][0]["sha256"] for r in edited} != {by_version["v2"]}
