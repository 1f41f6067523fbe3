"""docs/settings.md is the one table of settings: every setting the code reads through a
settings class is a row, with the code's default; a bad value of any of them is the same
one-line error."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic_settings import BaseSettings

from evals.settings import EvalSettings, RunStoreSettings
from pipeline.config import PROJECT_ROOT, PathSettings
from pipeline.errors import ConverseError
from pipeline.local_settings import LocalSettings
from pipeline.memory.relations import RelationSettings
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.local_llm.settings import LocalLLMSettings
from pipeline.providers.openai_compat.settings import OpenAISettings
from pipeline.providers.settings import ChoiceSettings
from pipeline.settings import Settings, setting_variables
from pipeline.store.ann import AnnSettings
from pipeline.store.engine import DbSettings

DOC = PROJECT_ROOT / "docs" / "settings.md"
CLASSES: list[type[BaseSettings]] = [
    Settings,
    PathSettings,
    DbSettings,
    AnnSettings,
    LocalSettings,
    RelationSettings,
    EvalSettings,
    RunStoreSettings,
    ClaudeSettings,
    OpenAISettings,
    LocalLLMSettings,
    ChoiceSettings,
]


def test_every_settings_class_is_checked_here():
    """A settings class added anywhere in pipeline/ or evals/ must be in CLASSES."""
    defined = set()
    for folder in ("pipeline", "evals"):
        for path in (PROJECT_ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            defined |= set(
                re.findall(r"^class (\w+)\((?:BaseSettings|ProviderSettings)\)", text, re.M)
            )
    # ProviderSettings is the providers' base, with no fields of its own
    assert defined - {"ProviderSettings"} == {kind.__name__ for kind in CLASSES}


def _rows() -> dict[str, str]:
    """Each row's name and default cell, as written."""
    rows: dict[str, str] = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        found = re.match(r"^\| `([A-Z_]+)` \| (.*?) \| .+ \|$", line)
        if found:
            assert found[1] not in rows, f"{found[1]} is in the table twice"
            rows[found[1]] = found[2]
    return rows


def _written(value: object) -> str:
    """A default as the table writes it."""
    if value is None or value == "":
        return "(none)"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Path):
        return f"`{value.relative_to(PROJECT_ROOT)}` (in the project)"
    if isinstance(value, str) and "/" in value:
        return f"`{value}`"
    return str(value)


def _expected() -> dict[str, str]:
    expected: dict[str, str] = {}
    for kind in CLASSES:
        variables = setting_variables(kind, kind.model_config.get("env_prefix") or "")
        for name, field in kind.model_fields.items():
            expected[variables[name]] = _written(field.default)
    return expected


def test_every_option_variable_is_a_row():
    """An option that also reads a variable (typer's `envvar=`) has its row too."""
    named: set[str] = set()
    for folder in ("pipeline", "evals"):
        for path in (PROJECT_ROOT / folder).rglob("*.py"):
            named |= set(re.findall(r'envvar="([A-Z_]+)"', path.read_text(encoding="utf-8")))
    assert named, "no option reads a variable: the pattern above is stale"
    missing = sorted(named - set(_rows()))
    assert not missing, f"docs/settings.md has no row for {missing}"


def test_every_setting_is_a_row_with_its_default():
    rows = _rows()
    expected = _expected()
    missing = sorted(set(expected) - set(rows))
    assert not missing, f"docs/settings.md has no row for {missing}"
    wrong = {name: (rows[name], want) for name, want in expected.items() if rows[name] != want}
    assert not wrong, f"defaults differ (table, code): {wrong}"


NUMBER = "input should be a valid number, unable to parse string as a number"
INTEGER = "input should be a valid integer, unable to parse string as an integer"
BOOLEAN = "input should be a valid boolean, unable to interpret input"
# One bad value of each kind, in the core settings and in the providers': the same line, the
# same reason for the same mistake, whichever class reads the variable.
BAD = [
    ("CONVERSE_SESSION_GAP_HOURS", "abc", "pipeline.settings:settings", NUMBER),
    ("CONVERSE_CLAUDE_TIMEOUT", "abc", "claude", NUMBER),
    ("CONVERSE_WORKING_MEMORY_TTL_DAYS", "abc", "pipeline.settings:settings", INTEGER),
    ("CONVERSE_LOCAL_THREADS", "abc", "pipeline.local_settings:local_settings", INTEGER),
    ("CONVERSE_LLM_THREADS", "abc", "llm", INTEGER),
    ("CONVERSE_CLAUDE_MAX_RETRIES", "many", "claude", INTEGER),
    ("CONVERSE_OPENAI_MAX_RETRIES", "1.5", "openai", INTEGER),
    ("CONVERSE_PROACTIVE_GREETING", "maybe", "pipeline.settings:settings", BOOLEAN),
    ("CONVERSE_CLAUDE_ADAPTIVE_LIMITS", "maybe", "claude", BOOLEAN),
    ("CONVERSE_LOCAL_JIT", "maybe", "pipeline.local_settings:local_settings", BOOLEAN),
    (
        "CONVERSE_LIFECYCLE_IMPORTANCE_THRESHOLD",
        "2",
        "pipeline.settings:settings",
        "input should be less than or equal to 1",
    ),
    (
        "CONVERSE_DB_CONNECT_TIMEOUT_S",
        "0",
        "pipeline.store.engine:db_settings",
        "input should be greater than or equal to 1",
    ),
    ("CONVERSE_OPENAI_TIMEOUT", "-1", "openai", "input should be greater than 0"),
    ("CONVERSE_CLAUDE_TIMEOUT", "0", "claude", "input should be greater than 0"),
    ("CONVERSE_LLM_PARALLEL", "-1", "llm", "input should be greater than or equal to 0"),
    (
        "CONVERSE_EMBEDDER",
        "tensorflow",
        "pipeline.local_settings:local_settings",
        "input should be 'onnx' or 'torch'",
    ),
    (
        "CONVERSE_CLAUDE_CLASSIFIER_SHAPE",
        "sideways",
        "claude",
        "input should be 'auto', 'forced_tool' or 'structured_output'",
    ),
]
READERS: dict[str, Any] = {
    "claude": ClaudeSettings.from_env,
    "openai": OpenAISettings.from_env,
    "llm": LocalLLMSettings.from_env,
}


@pytest.mark.parametrize(("name", "value", "reader", "why"), BAD)
def test_a_bad_value_is_the_same_one_line_error(name, value, reader, why, monkeypatch):
    import importlib

    monkeypatch.setenv(name, value)
    monkeypatch.setenv("CONVERSE_OPENAI_BASE_URL", "http://localhost:1/v1")
    monkeypatch.setenv("CONVERSE_OPENAI_MODEL", "m")
    read = READERS.get(reader)
    if read is None:
        module, function = reader.split(":")
        read = getattr(importlib.import_module(module), function)
    with pytest.raises(ConverseError) as caught:
        read()
    assert caught.value.one_line() == (
        f"{name}={value!r} is not valid: {why} — fix or unset {name} (docs/settings.md lists "
        "every setting)"
    )


def test_a_bad_option_is_the_same_error_naming_the_option():
    """An option wins over the variable, so the error names the option it came from."""
    with pytest.raises(ConverseError) as caught:
        ClaudeSettings.from_env({"CONVERSE_CLAUDE_TIMEOUT": "5"}, timeout="0")
    assert caught.value.one_line() == (
        "option timeout='0' is not valid: input should be greater than 0 — fix or unset option "
        "timeout (docs/settings.md lists every setting)"
    )
