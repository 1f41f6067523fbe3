"""The contract of a suite target: every step of docs/evals.md's "Adding a suite target" done.

`missing_steps` names each step a target lacks; every real target lacks none, and a made-up
one lacks every step, so a target added without one of them fails here, naming the step. A
spec that offers something (recording, pooled figures, a report section) without what it takes
is named too, and no module of evals compares a target's name: what differs between targets is
read from the spec.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import get_args

from evals.dataset.cases import CASE_MODELS
from evals.dataset.models import TARGETS, Target
from evals.dataset.schema import SCHEMA_FILE
from evals.report.build import TARGET_SECTIONS
from evals.runner.summary import POOLED
from evals.runner.targets import RUNNERS
from evals.scorers import SCORERS
from evals.targets import TARGET_SPECS, TargetSpec
from pipeline.config import PROJECT_ROOT

DOCS = PROJECT_ROOT / "docs" / "evals.md"
EVALS = PROJECT_ROOT / "evals"
# The tables that list every target by name (steps 1-5 of the checklist); anywhere else a
# target's name compared or looked up is a decision its spec should hold.
TABLES = {
    "evals/dataset/models.py",
    "evals/dataset/cases.py",
    "evals/scorers/__init__.py",
    "evals/runner/targets.py",
    "evals/runner/summary.py",
    "evals/targets.py",
}
_NAME = "|".join(TARGETS)
# a line naming a target as a string beside the word "target" (`suite.target == "classify"`,
# `{"classify": ...}.get(suite.target)`, PERTURBED_TARGETS = {...}), except a suite written
# as data (`"target": "classify"`)
_COMPARED = re.compile(rf"target.*[\"']({_NAME})[\"']|[\"']({_NAME})[\"'].*target", re.IGNORECASE)
_DATA = re.compile(r"[\"']target[\"']\s*:\s*[\"']")


def name_comparisons(root: Path = EVALS) -> list[str]:
    """Every line of evals outside the tables that decides by a target's name."""
    found = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root.parent).as_posix()
        if where in TABLES:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _COMPARED.search(line) and not _DATA.search(line):
                found.append(f"{where}:{number}: {line.strip()}")
    return found


def unsupported_offers(spec: TargetSpec) -> list[str]:
    """What the spec offers without what it takes, each naming what to add."""
    missing = []
    if spec.recorded and spec.recorded_line is None:
        missing.append("5. its spec's recorded_line (what `converse record` prints per case)")
    if spec.pooled_metrics and spec.name not in POOLED:
        missing.append(
            "5. its pooling function and gate bounds in POOLED (evals/runner/summary.py)"
        )
    if spec.pooled_metrics and spec.report_section is None:
        missing.append("5. its spec's report_section (the report section of its pooled figures)")
    if spec.report_section is not None and spec.report_section not in TARGET_SECTIONS:
        missing.append(
            f"5. a report section titled {spec.report_section!r} in TARGET_SECTIONS "
            "(evals/report/build.py)"
        )
    if spec.label_families and spec.label_active_set:
        missing.append("5. one prompt label: label_families or label_active_set, not both")
    if spec.export_answer is not None and spec.not_exportable is not None:
        missing.append("5. export_answer only for a target `converse export promptfoo` takes")
    return missing


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
    if spec is not None:
        missing += unsupported_offers(spec)
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
        assert (spec.recorded_line is not None) == spec.recorded, name


def test_a_spec_offering_what_it_lacks_is_named():
    spec = TARGET_SPECS["closure"]
    lacking = dataclasses.replace(
        spec, recorded_line=None, report_section="Closure figures", export_answer="narrative"
    )
    assert unsupported_offers(spec) == []
    assert unsupported_offers(lacking) == [
        "5. its spec's recorded_line (what `converse record` prints per case)",
        "5. a report section titled 'Closure figures' in TARGET_SECTIONS (evals/report/build.py)",
        "5. export_answer only for a target `converse export promptfoo` takes",
    ]
    unpooled = dataclasses.replace(TARGET_SPECS["classify"], pooled_metrics=True)
    assert unsupported_offers(unpooled) == [
        "5. its pooling function and gate bounds in POOLED (evals/runner/summary.py)",
        "5. its spec's report_section (the report section of its pooled figures)",
    ]


def test_no_module_decides_by_a_target_name():
    assert name_comparisons() == []


def test_a_decision_by_a_target_name_is_found(tmp_path):
    module = tmp_path / "evals" / "report" / "extra.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        'suite = {"target": "classify"}  # a suite as data\n'
        'if row["target"] == "conversation":\n'
        '    noun = {"classify": "calls"}.get(suite.target, "cases")\n',
        encoding="utf-8",
    )
    found = name_comparisons(tmp_path / "evals")
    assert [line.split(": ")[0] for line in found] == [
        "evals/report/extra.py:2",
        "evals/report/extra.py:3",
    ]
    # the tables that list every target are where names belong
    (tmp_path / "evals" / "targets.py").write_text(module.read_text(), encoding="utf-8")
    assert len(name_comparisons(tmp_path / "evals")) == 2


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


def test_rows_read_by_their_spec_and_of_an_unknown_target_still_show():
    from evals.report.frame import describe_expected, describe_got
    from evals.targets import in_section, is_transcript

    got = {"intent": "remember_about_me", "params": {"personal_fact": "tea"}}
    assert describe_got("classify", got) == "remember_about_me (personal_fact='tea')"
    assert describe_expected("forget_match", {"action": "ambiguous", "matched": ["a"]}) == (
        "ambiguous ['a']"
    )
    # a target no spec names (a row written by another version) shows its values as JSON
    assert describe_got("retired", got) == json.dumps(got, ensure_ascii=False)
    assert describe_expected("retired", "x" * 200) == "x" * 159 + "…"
    # a damaged row shows what it holds instead of failing
    assert describe_expected("forget_match", ["not", "a", "mapping"]) == '["not", "a", "mapping"]'
    assert is_transcript("conversation") and not is_transcript("classify")
    assert not is_transcript("retired")
    assert in_section("closure", "Conversation closure") and not in_section("retired", "x")
