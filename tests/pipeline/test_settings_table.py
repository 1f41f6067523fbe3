"""docs/settings.md is the one table of settings: every setting the code reads through a
settings class is a row, with the code's default; a bad value of any of them is the same
one-line error."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic_settings import BaseSettings

from evals.settings import EvalSettings
from pipeline.config import PROJECT_ROOT, PathSettings
from pipeline.errors import ConverseError
from pipeline.local_settings import LocalSettings
from pipeline.memory.relations import RelationSettings
from pipeline.providers.claude.settings import ENV_VARS as CLAUDE_VARS
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.local_llm.settings import ENV_VARS as LLM_VARS
from pipeline.providers.local_llm.settings import LocalLLMSettings
from pipeline.providers.openai_compat.settings import ENV_VARS as OPENAI_VARS
from pipeline.providers.openai_compat.settings import OpenAISettings
from pipeline.settings import Settings
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
]
LAYERED: list[tuple[Any, dict[str, str]]] = [
    (ClaudeSettings, CLAUDE_VARS),
    (OpenAISettings, OPENAI_VARS),
    (LocalLLMSettings, LLM_VARS),
]


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
        prefix = kind.model_config.get("env_prefix", "")
        for name, field in kind.model_fields.items():
            expected[f"{prefix}{name.upper()}"] = _written(field.default)
    for cls, env_vars in LAYERED:
        defaults = {f.name: f.default for f in dataclasses.fields(cls)}
        for name, var in env_vars.items():
            expected[var] = _written(defaults[name])
    return expected


def test_every_setting_is_a_row_with_its_default():
    rows = _rows()
    expected = _expected()
    missing = sorted(set(expected) - set(rows))
    assert not missing, f"docs/settings.md has no row for {missing}"
    wrong = {name: (rows[name], want) for name, want in expected.items() if rows[name] != want}
    assert not wrong, f"defaults differ (table, code): {wrong}"


BAD = [
    ("CONVERSE_SESSION_GAP_HOURS", "abc", "pipeline.settings:settings"),
    ("CONVERSE_LIFECYCLE_IMPORTANCE_THRESHOLD", "2", "pipeline.settings:settings"),
    ("CONVERSE_DB_CONNECT_TIMEOUT_S", "0", "pipeline.store.engine:db_settings"),
    ("CONVERSE_LOCAL_THREADS", "abc", "pipeline.local_settings:local_settings"),
    ("CONVERSE_CLAUDE_MAX_RETRIES", "many", "claude"),
    ("CONVERSE_OPENAI_TIMEOUT", "-1", "openai"),
]


@pytest.mark.parametrize(("name", "value", "reader"), BAD)
def test_a_bad_value_is_the_same_one_line_error(name, value, reader, monkeypatch):
    import importlib

    monkeypatch.setenv(name, value)
    monkeypatch.setenv("CONVERSE_OPENAI_BASE_URL", "http://localhost:1/v1")
    monkeypatch.setenv("CONVERSE_OPENAI_MODEL", "m")
    read: Any
    if reader == "claude":
        read = ClaudeSettings.from_env
    elif reader == "openai":
        read = OpenAISettings.from_env
    else:
        module, function = reader.split(":")
        read = getattr(importlib.import_module(module), function)
    with pytest.raises(ConverseError) as caught:
        read()
    line = caught.value.one_line()
    assert "\n" not in line
    assert line.startswith(f"{name}={value!r} is not valid: ")
    assert line.endswith(f" — fix or unset {name} (docs/settings.md lists every setting)")
