"""Every registered provider declares the contract of pipeline/providers/base.py, and callers
can rely on it: the `--prompt` families, the default rule, no import cycle."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from pipeline.cli.common import default_script
from pipeline.cli.exits import EXIT_USAGE
from pipeline.errors import ConverseError
from pipeline.memory.embeddings import Embedder
from pipeline.prompting import default_library
from pipeline.providers.base import Classifier, Responder
from pipeline.providers.registry import (
    PROVIDER_NAMES,
    REGISTRY,
    ProviderOptions,
    check_prompt_families,
    default_provider,
    make_providers,
)

# Enough to construct each provider; nothing is called. The claude base URL is a name that
# cannot resolve, so a stray request would fail rather than reach anything.
OPTIONS = {
    "claude": ProviderOptions(
        settings={
            "api_key": "contract-test",
            "base_url": "http://contract.invalid",
            "max_retries": 0,
        }
    ),
    "scripted": ProviderOptions(script=default_script()),
    "openai-compatible": ProviderOptions(
        settings={"base_url": "http://contract.invalid/v1", "model": "contract", "max_retries": 0}
    ),
    "local": ProviderOptions(),
    "local-reader": ProviderOptions(),
    "local-llm": ProviderOptions(settings={"model": "smollm2"}),
}
# The embedded model's runtime comes with the dev install; without it that provider is skipped.
NEEDS = {"local-llm": "xllamacpp"}
FAMILIES = sorted(default_library().families())


def test_every_registered_provider_is_tested() -> None:
    assert set(OPTIONS) == set(PROVIDER_NAMES)


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_a_built_provider_declares_the_contract(name: str) -> None:
    needed = NEEDS.get(name)
    if needed and importlib.util.find_spec(needed) is None:
        pytest.skip(f"{needed} (the {name} runtime) is not installed")
    built = make_providers(name, OPTIONS[name])
    assert isinstance(built.classifier, Classifier)
    assert isinstance(built.responder, Responder)
    assert name in built.label.lower()
    assert isinstance(built.model, str) and built.model
    assert built.embedder is None or isinstance(built.embedder, Embedder)
    assert len(built.fingerprint) == 64 and int(built.fingerprint, 16) >= 0
    assert isinstance(built.data_files, tuple)
    assert all(isinstance(p, Path) and p.is_file() for p in built.data_files)
    assert built.warm_up is None or callable(built.warm_up)


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_a_spec_declares_known_families_and_cassettes(name: str) -> None:
    spec = REGISTRY[name]
    assert spec.name == name and spec.description
    assert isinstance(spec.uses_cassettes, bool)
    for family in spec.prompt_families:
        assert any(spec.reads(f) for f in FAMILIES if f.split("/")[0] == family), family


@pytest.mark.parametrize("name", PROVIDER_NAMES)
@pytest.mark.parametrize("family", FAMILIES)
def test_prompt_versions_are_accepted_exactly_for_the_families_read(name: str, family: str) -> None:
    if REGISTRY[name].reads(family):
        check_prompt_families(name, [family])
    else:
        with pytest.raises(ConverseError, match=r"--prompt|does not read"):
            check_prompt_families(name, [family])


@pytest.mark.parametrize("name", ["claude", "openai-compatible", "local-llm"])
def test_model_providers_read_the_classifier_and_every_system_prompt_family(name: str) -> None:
    assert all(REGISTRY[name].reads(f) for f in FAMILIES)


def test_offline_providers_read_no_templates() -> None:
    for name in ("local", "local-reader", "scripted"):
        assert not REGISTRY[name].prompt_families, name


def test_the_data_a_provider_reads_changes_its_fingerprint(tmp_path: Path) -> None:
    script = tmp_path / "script.yaml"
    script.write_text(default_script().read_text(encoding="utf-8"), encoding="utf-8")
    before = make_providers("scripted", ProviderOptions(script=script)).fingerprint
    script.write_text(script.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert make_providers("scripted", ProviderOptions(script=script)).fingerprint != before


def test_prompt_for_a_provider_reading_no_templates_is_one_clear_usage_error() -> None:
    result = CliRunner().invoke(
        app, ["eval", "--provider", "local", "--prompt", "classifier=v1", "--no-report"]
    )
    assert result.exit_code == EXIT_USAGE
    assert "--prompt does not apply to the local provider" in result.output


@pytest.mark.parametrize(
    "name", ["local", "local-reader", "claude", "openai-compatible", "local-llm"]
)
def test_an_unknown_setting_is_a_usage_error_naming_it(name: str) -> None:
    settings = {**OPTIONS[name].settings, "colour": "blue"}
    with pytest.raises(ConverseError, match=r"unknown .* option 'colour'"):
        make_providers(name, ProviderOptions(settings=settings))


def test_an_unknown_provider_names_the_known_ones() -> None:
    with pytest.raises(
        ConverseError,
        match="choose one of: local, local-reader, claude, scripted, openai-compatible, local-llm",
    ):
        make_providers("gpt")


@pytest.mark.parametrize(
    ("environ", "chosen"),
    [
        ({}, "local"),
        ({"ANTHROPIC_API_KEY": "k"}, "claude"),
        ({"ANTHROPIC_API_KEY": "k", "CONVERSE_PROVIDER": "scripted"}, "scripted"),
        ({"CONVERSE_PROVIDER": ""}, "local"),
    ],
)
def test_one_default_rule(environ: dict[str, str], chosen: str) -> None:
    assert default_provider(environ) == chosen


def test_the_registry_and_the_provider_packages_do_not_import_each_other() -> None:
    code = (
        "import sys\n"
        "import pipeline.providers.registry\n"
        "assert not {'pipeline.providers.claude', 'pipeline.providers.local',\n"
        "            'pipeline.providers.openai_compat', 'openai',\n"
        "            'pipeline.providers.local_llm', 'xllamacpp'} & set(sys.modules)\n"
        "del sys.modules['pipeline.providers.registry']\n"
        "import pipeline.providers.claude.client, pipeline.providers.local\n"
        "import pipeline.providers.openai_compat.client, pipeline.providers.local_llm.client\n"
        "assert 'pipeline.providers.registry' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_the_openai_compatible_provider_without_its_sdk_is_one_line(monkeypatch) -> None:
    import builtins

    from pipeline.errors import ConverseError
    from pipeline.providers.base import ProviderOptions
    from pipeline.providers.registry import REGISTRY

    real_import = builtins.__import__

    def no_openai(name: str, *args: object, **kwargs: object) -> object:
        if name == "openai" or name.startswith("openai."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_openai)
    with pytest.raises(ConverseError) as raised:
        REGISTRY["openai-compatible"].factory(ProviderOptions())
    assert raised.value.one_line() == (
        "the openai-compatible provider needs the openai SDK, which is not installed — "
        'install it with `pip install -e ".[openai]"`'
    )
