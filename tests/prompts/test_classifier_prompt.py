"""The classifier prompt carries the whole taxonomy, the boundaries and the continuation rules."""

from __future__ import annotations

import re

import pytest

from pipeline.assemble import classifier_prompt
from pipeline.intents.taxonomy import INTENTS, LIVE_INTENTS, STUB_INTENTS
from pipeline.prompting import default_library
from pipeline.providers.claude import TOOL_NAME, tool_definition
from pipeline.providers.intent_schema import (
    READING_SCHEMA,
    answer_schema,
    param_names,
    schema_for,
)
from pipeline.providers.intent_schema import IntentAnswer as ToolInput


@pytest.fixture(scope="module")
def text() -> str:
    return classifier_prompt(default_library(), project_name=None).text


@pytest.fixture(scope="module")
def v1_text() -> str:
    library = default_library({"classifier": "v1"})
    return classifier_prompt(library, project_name=None).text


def intent_line(text: str, name: str) -> tuple[str, str]:
    match = re.search(rf"^- {name}\b(.*)\n  Parameters: (.*)\.$", text, re.M)
    assert match, f"{name} is not listed"
    return match.group(1), match.group(2)


def test_every_intent_is_listed_with_its_parameters(text: str) -> None:
    assert len(LIVE_INTENTS) == 9 and len(STUB_INTENTS) == 4
    for name, spec in INTENTS.items():
        head, params = intent_line(text, name)
        assert params == (", ".join(spec.params) or "none")
        assert ("(not available yet)" in head) is (not spec.live)
        assert spec.summary in head


def test_the_specifications_boundary_examples(text: str) -> None:
    for example, intent in [
        ("The soil pH should be 6.5", "add_knowledge"),
        ("I prefer working in the mornings", "remember_about_me"),
        ("We use PostgreSQL for this project", "add_knowledge"),
        ("I'm allergic to shellfish", "remember_about_me"),
    ]:
        assert f'"{example}" → {intent}' in text


def test_v1_has_the_six_continuation_rules(v1_text: str) -> None:
    rules = v1_text.split("CONTINUATIONS")[1]
    expected = [
        ("1. After an offer to remember", '"yes"', "→ remember_about_me"),
        ("2. After such an offer, a refinement", '"no, just shrimp"', "→ remember_about_me"),
        ("3. After the companion asked to confirm", '"that\'s the one"', "→ forget_about_me"),
        ("4. After a cross-promotion offer", "a confirmation", "→ remember_about_me"),
        (
            "5. After a cross-promotion offer, a decline",
            '"no, just this project"',
            "→ general_conversation",
        ),
        ("6. An outright rejection", '"never mind"', "→ general_conversation"),
    ]
    lines = [line for line in rules.splitlines() if re.match(r"^\d\. ", line)]
    assert len(lines) == 6
    for line, (start, example, result) in zip(lines, expected, strict=True):
        assert line.startswith(start) and example in line and result in line, line
    assert '"actually it\'s March 16th"' in lines[1]


def test_the_project_is_named_inside_a_fence() -> None:
    library = default_library()
    inside = classifier_prompt(library, project_name="Backyard garden").text
    assert inside.endswith(
        'inside the project <untrusted kind="project_name">\nBackyard garden\n</untrusted>.'
    )
    outside = classifier_prompt(library, project_name=None).text
    assert outside.endswith("This conversation happens outside any project.")


def test_the_active_prompt_asks_for_every_relation_of_the_reading(text: str) -> None:
    section = text.split("CONTINUATIONS")[1].split("CONVERSATION")[0]
    for relation in READING_SCHEMA["relation"]["enum"]:
        assert f"- {relation}: " in section, relation
    for field in ("`corrected`", "`chosen`", "`project_only: true`", "`restore: true`"):
        assert field in text, field
    assert "`question: true`" in text and "never a fact to remember" in text


def test_the_prompt_names_the_tool_whose_schema_is_the_taxonomy(text: str, v1_text: str) -> None:
    assert f"call the `{TOOL_NAME}` tool" in v1_text
    assert f"answer with `{TOOL_NAME}`" in text
    tool = tool_definition()
    schema = tool["input_schema"]
    assert isinstance(schema, dict)
    properties = schema["properties"]
    assert isinstance(properties, dict)
    assert properties["intent"]["enum"] == list(INTENTS)
    every_param = {p for spec in INTENTS.values() for p in spec.params}
    assert set(properties) == {"intent"} | every_param | set(READING_SCHEMA)
    assert set(param_names()) == every_param
    assert set(ToolInput.model_fields) == {"intent"} | every_param | set(READING_SCHEMA)


def test_v5_renders_v4s_text_for_the_released_intents() -> None:
    """v5 differs from v4 only for an intent that brings its examples on its spec."""
    for project_name in (None, "Sourdough"):
        v4 = classifier_prompt(default_library({"classifier": "v4"}), project_name=project_name)
        v5 = classifier_prompt(default_library({"classifier": "v5"}), project_name=project_name)
        assert v5.text == v4.text
        assert v5.ref.sha256 != v4.ref.sha256


def test_v6_renders_v3s_text_and_asks_for_v3s_answer() -> None:
    """v6, the active version, differs from v3 only for an intent that brings its examples on
    its spec: every provider that reads the template is asked what v3 asked."""
    for project_name in (None, "Sourdough"):
        v3 = classifier_prompt(default_library({"classifier": "v3"}), project_name=project_name)
        v6 = classifier_prompt(default_library(), project_name=project_name)
        assert v6.ref.version == "v6"
        assert v6.text == v3.text
        assert v6.ref.sha256 != v3.ref.sha256
        assert schema_for((v6.ref,)) == schema_for((v3.ref,)) == answer_schema()
