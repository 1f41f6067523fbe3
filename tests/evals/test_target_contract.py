"""The contract of a suite target: every step of docs/evals.md's "Adding a suite target" done.

`missing_steps` names each step a target lacks; every real target lacks none, and a made-up
one lacks every step, so a target added without one of them fails here, naming the step.
"""

from __future__ import annotations

import json
from typing import get_args

from evals.dataset.cases import CASE_MODELS
from evals.dataset.models import TARGETS, Target
from evals.dataset.schema import SCHEMA_FILE
from evals.runner.summary import POOLED
from evals.runner.targets import RUNNERS
from evals.scorers import SCORERS
from evals.targets import TARGET_SPECS
from pipeline.config import PROJECT_ROOT

DOCS = PROJECT_ROOT / "docs" / "evals.md"


def missing_steps(name: str) -> list[str]:
    """Each step of "Adding a suite target" that `name` has not done."""
    docs = DOCS.read_text(encoding="utf-8")
    schema = json.loads((PROJECT_ROOT / SCHEMA_FILE).read_text(encoding="utf-8"))
    missing = []
    if name not in get_args(Target) or name not in TARGETS:
        missing.append("1. the Target literal and TARGETS in evals/dataset/models.py")
    if name not in CASE_MODELS:
        missing.append("2. its case model in CASE_MODELS (evals/dataset/cases.py)")
    if name not in SCORERS:
        missing.append("3. its scorer in SCORERS (evals/scorers/__init__.py)")
    if name not in RUNNERS:
        missing.append("4. its runner in RUNNERS (evals/runner/targets.py)")
    spec = TARGET_SPECS.get(name)  # type: ignore[call-overload]
    if spec is None:
        missing.append("5. its TargetSpec in TARGET_SPECS (evals/targets.py)")
    elif spec.case_model is not CASE_MODELS.get(name) or spec.scorer is not SCORERS.get(name):  # type: ignore[call-overload]
        missing.append("5. its TargetSpec names the case model and scorer of the tables")
    if name not in schema["discriminator"]["mapping"]:
        missing.append(f"6. {SCHEMA_FILE} regenerated (converse suites schema --out ...)")
    if f"| `{name}` |" not in docs:
        missing.append("7. a row in docs/evals.md's table of targets")
    if (
        spec is not None
        and f"\n## {spec.docs}\n" not in docs
        and f"\n### {spec.docs}\n" not in docs
    ):
        missing.append(f"7. the section its spec names in docs/evals.md ({spec.docs})")
    return missing


def test_every_target_has_done_every_step():
    for name in TARGETS:
        assert missing_steps(name) == [], name
    assert set(TARGET_SPECS) == set(TARGETS) == set(RUNNERS) == set(SCORERS) == set(CASE_MODELS)


def test_a_target_with_no_step_done_is_named_step_by_step():
    steps = missing_steps("summarize")
    assert [step.split(".")[0] for step in steps] == ["1", "2", "3", "4", "5", "6", "7"]


def test_the_specs_agree_with_themselves():
    for name, spec in TARGET_SPECS.items():
        assert spec.name == name
        # a cached answer is keyed by the prompts that make it, and only models answer
        assert spec.cached == bool(spec.cache_families), name
        assert not spec.cached or spec.runs_on == "providers", name
        assert not spec.recorded or spec.replayed, name  # what is recorded is replayed
        assert spec.runs_on != "pipeline" or not spec.replayed, name  # no model, no cassette
        assert spec.pooled_metrics == (name in POOLED), name


def test_the_checklist_is_in_the_docs():
    docs = DOCS.read_text(encoding="utf-8")
    checklist = docs.split("### Adding a suite target")[1].split("\n## ")[0]
    for place in ("evals/dataset/models.py", "evals/dataset/cases.py", "evals/scorers/",
                  "evals/runner/targets.py", "evals/targets.py", SCHEMA_FILE,
                  "tests/evals/test_target_contract.py"):  # fmt: skip
        assert place in checklist, place


def test_every_project_suite_exports_to_promptfoo_or_is_refused_in_one_line(tmp_path):
    from evals.dataset import load_suites
    from evals.export import export_promptfoo
    from pipeline.errors import ConverseError

    for suite in load_suites():
        refusal = TARGET_SPECS[suite.target].not_exportable
        if refusal is None:
            assert export_promptfoo(suite, tmp_path / suite.name, provider="scripted").is_file()
            continue
        try:
            export_promptfoo(suite, tmp_path / suite.name, provider="scripted")
        except ConverseError as exc:
            assert refusal in str(exc), suite.name
        else:
            raise AssertionError(f"{suite.name}: exported, though its spec refuses it")
