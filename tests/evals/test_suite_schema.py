"""The suite format's JSON Schema: committed, current, and agreeing with the loader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import load_suite, load_suites
from evals.dataset.schema import SCHEMA_FILE, schema_text, suite_schema
from pipeline.config import PROJECT_ROOT
from tests.evals.conftest import CLASSIFY_SUITE, write_yaml

SUITE_FOLDERS = ("evals/suites", "evals/heldout")


def test_the_committed_schema_is_current():
    committed = (PROJECT_ROOT / SCHEMA_FILE).read_text(encoding="utf-8")
    assert committed == schema_text(), (
        f"{SCHEMA_FILE} is stale: run `converse suites schema --out {SCHEMA_FILE}` and commit it"
    )


def test_every_project_suite_validates_against_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    import yaml

    validator = jsonschema.Draft202012Validator(suite_schema())
    paths = [p for folder in SUITE_FOLDERS for p in sorted((PROJECT_ROOT / folder).glob("*.yaml"))]
    assert len(paths) >= 10
    for path in paths:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        errors = [e.message for e in validator.iter_errors(data)]
        assert not errors, f"{path}: {errors[:3]}"


def test_the_schema_refuses_what_the_loader_refuses(make_suite):
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(suite_schema())
    typo = {**CLASSIFY_SUITE, "cases": [{**CLASSIFY_SUITE["cases"][0], "expct": {}}]}
    assert list(validator.iter_errors(typo))
    with pytest.raises(Exception, match="expct"):
        load_suite(make_suite(typo))
    settings = {**CLASSIFY_SUITE, "settings": {"multi_fact_extraction": True}}
    assert list(validator.iter_errors(settings))  # only conversation suites take settings
    with pytest.raises(Exception, match="only `conversation` suites run under their own settings"):
        load_suite(make_suite(settings))


def test_a_suite_may_name_its_schema(tmp_path: Path):
    plain = load_suite(write_yaml(tmp_path / "plain.yaml", CLASSIFY_SUITE))
    external = tmp_path / "elsewhere" / "tagged.yaml"
    external.parent.mkdir()
    write_yaml(external, {"$schema": "https://example.org/suite.schema.json", **CLASSIFY_SUITE})
    (tagged,) = load_suites([str(external)])
    assert [c.id for c in tagged.cases] == [c.id for c in plain.cases]
    assert tagged.case_hashes == plain.case_hashes  # the key changes no case
    # only under its own name: a misspelt key is still an error
    wrong = write_yaml(tmp_path / "wrong.yaml", {"schema": "x", **CLASSIFY_SUITE})
    with pytest.raises(Exception, match="field schema: Extra inputs are not permitted"):
        load_suite(wrong)


def test_suites_schema_prints_or_writes_it(tmp_path: Path):
    runner = CliRunner()
    printed = runner.invoke(app, ["suites", "schema"])
    assert printed.exit_code == 0, printed.output
    assert json.loads(printed.stdout)["discriminator"]["propertyName"] == "target"
    out = tmp_path / "suite.schema.json"
    written = runner.invoke(app, ["suites", "schema", "--out", str(out)])
    assert written.exit_code == 0, written.output
    assert written.stdout.strip() == f"schema: {out}"
    assert out.read_text(encoding="utf-8") == schema_text()
