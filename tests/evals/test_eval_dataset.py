"""Suite files: the project's suites load, and malformed ones name the file, the case and the field."""

from __future__ import annotations

import pytest

from evals.dataset import SuiteError, load_suite, load_suites, resolve_suite

GOOD_CASE = {"id": "ok", "message": "hi", "expect": {"intent": "general_conversation"}}


def suite(*cases, target="classify", **extra):
    return {"name": "s", "target": target, "cases": list(cases), **extra}


def error_of(make_suite, data) -> str:
    path = make_suite(data)
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    return str(caught.value)


def test_every_project_and_heldout_suite_loads():
    suites = load_suites() + load_suites(["evals/heldout"])
    by_target = {s.name: s.target for s in suites}
    assert by_target["intent_boundaries"] == "classify"
    assert by_target["truncation"] == "memory_block"
    assert by_target["forget_matching"] == "forget_match"
    assert all(s.gate is not None for s in suites)


def test_unknown_field_names_file_case_and_field(make_suite):
    bad = {
        "id": "typo-case",
        "message": "hi",
        "expect": {"intent": "general_conversation", "parms": {}},
    }
    path = make_suite(suite(GOOD_CASE, bad))
    message = error_of(make_suite, suite(GOOD_CASE, bad))
    assert str(path) in message
    assert "case 'typo-case'" in message
    assert "field expect.parms" in message


def test_unknown_intent_and_bad_age_and_missing_message(make_suite):
    message = error_of(
        make_suite,
        suite(
            {"id": "a", "message": "x", "expect": {"intent": "remember_everything"}},
            {"id": "b", "expect": {"intent": "general_conversation"}},
        ),
    )
    assert (
        "case 'a': field expect.intent" in message
        and "unknown intent 'remember_everything'" in message
    )
    assert "case 'b': field message: Field required" in message

    message = error_of(
        make_suite,
        suite(
            {
                "id": "old",
                "memories": [{"content": "x", "age": "3 fortnights"}],
                "expect": {"empty": True},
            },
            target="memory_block",
        ),
    )
    assert "case 'old': field memories.0.age" in message and "3 fortnights" in message


def test_history_entry_needs_exactly_one_speaker(make_suite):
    case = {**GOOD_CASE, "id": "h", "history": [{"operator": "a", "companion": "b"}]}
    message = error_of(make_suite, suite(case))
    assert "case 'h': field history.0" in message and "exactly one of" in message


def test_duplicate_ids_and_header_errors(make_suite):
    assert "case 'ok': field id: duplicate case id" in error_of(
        make_suite, suite(GOOD_CASE, GOOD_CASE)
    )
    assert "field target" in error_of(make_suite, suite(GOOD_CASE, target="summarize"))
    assert "field gate.accuracy" in error_of(make_suite, suite(GOOD_CASE, gate={"accuracy": 1.5}))
    assert "field cases: the suite has no cases" in error_of(make_suite, suite())


def test_case_without_an_id_is_named_by_position(make_suite):
    message = error_of(
        make_suite, suite(GOOD_CASE, {"message": "x", "expect": {"intent": "add_knowledge"}})
    )
    assert "case #2: field id: Field required" in message


def test_not_yaml_and_missing_file(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(SuiteError, match=r"broken\.yaml is not valid YAML"):
        load_suite(broken)
    with pytest.raises(SuiteError, match="not found"):
        load_suite(tmp_path / "absent.yaml")


def test_resolve_by_name_path_or_folder(classify_suite):
    assert resolve_suite("truncation")[0].name == "truncation.yaml"
    assert resolve_suite(str(classify_suite)) == [classify_suite]
    assert resolve_suite(str(classify_suite.parent)) == [classify_suite]
    with pytest.raises(SuiteError, match="no suite called 'nope'") as caught:
        resolve_suite("nope")
    assert "intent_boundaries" in str(caught.value)


def test_case_hash_depends_on_content_only(make_suite):
    a = load_suite(make_suite(suite(GOOD_CASE, {**GOOD_CASE, "id": "two"}), "a"))
    b = load_suite(make_suite(suite({**GOOD_CASE, "id": "two"}, GOOD_CASE), "b"))
    assert a.case_hashes == b.case_hashes
    c = load_suite(make_suite(suite({**GOOD_CASE, "message": "hello"}), "c"))
    assert c.case_hashes["ok"] != a.case_hashes["ok"]
