"""The root command's options are parsed without importing the settings classes; the names
they show are the classes' own."""

from __future__ import annotations

import subprocess
import sys

from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.command_options import CLAUDE_ENV_VARS, OPENAI_ENV_VARS
from pipeline.providers.openai_compat.settings import OpenAISettings


def test_the_variables_named_are_the_settings_classes_own() -> None:
    assert ClaudeSettings.env_vars() == CLAUDE_ENV_VARS
    assert OpenAISettings.env_vars() == OPENAI_ENV_VARS


def test_the_provider_names_shown_are_the_registrys_own() -> None:
    from pipeline.providers import command_options, registry

    assert command_options.PROVIDER_NAMES == registry.PROVIDER_NAMES


def test_the_cli_starts_without_pydantic_settings() -> None:
    code = "import sys, evals.cli; print('pydantic_settings' in sys.modules)"
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "False"
