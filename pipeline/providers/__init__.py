"""Model providers: the Classifier and Responder protocols, the registry of providers, and their
implementations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

if TYPE_CHECKING:
    from pipeline.providers.answers import degraded, validated
    from pipeline.providers.base import (
        Classifier,
        ClassifyRequest,
        ProviderOptions,
        Providers,
        ProviderSpec,
        Responder,
        RespondRequest,
    )
    from pipeline.providers.command_options import PROVIDER_NAMES
    from pipeline.providers.registry import (
        REGISTRY,
        anthropic_key_set,
        check_prompt_families,
        default_provider,
        make_providers,
        spec_of,
    )
    from pipeline.providers.scripted import ScriptedProvider, ScriptEntry
    from pipeline.providers.structured import (
        StructuredAnswer,
        StructuredGenerator,
        StructuredRequest,
    )
    from pipeline.providers.summarize import ExtractiveSummarizer, Summarizer

# Loaded on first use, so that reading a provider's settings (pipeline.providers.claude.settings,
# read by every command) does not import the whole pipeline through base.
_LAZY = {
    "Classifier": ".base",
    "ClassifyRequest": ".base",
    "ProviderOptions": ".base",
    "Providers": ".base",
    "ProviderSpec": ".base",
    "Responder": ".base",
    "RespondRequest": ".base",
    "degraded": ".answers",
    "validated": ".answers",
    # the registry's names in its order, without building it (test_command_options.py)
    "PROVIDER_NAMES": ".command_options",
    "REGISTRY": ".registry",
    "anthropic_key_set": ".registry",
    "check_prompt_families": ".registry",
    "default_provider": ".registry",
    "make_providers": ".registry",
    "spec_of": ".registry",
    "ScriptEntry": ".scripted",
    "ScriptedProvider": ".scripted",
    "StructuredAnswer": ".structured",
    "StructuredGenerator": ".structured",
    "StructuredRequest": ".structured",
    "ExtractiveSummarizer": ".summarize",
    "Summarizer": ".summarize",
}


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "PROVIDER_NAMES",
    "REGISTRY",
    "Classifier",
    "ClassifyRequest",
    "ExtractiveSummarizer",
    "ProviderOptions",
    "ProviderSpec",
    "Providers",
    "RespondRequest",
    "Responder",
    "ScriptEntry",
    "ScriptedProvider",
    "StructuredAnswer",
    "StructuredGenerator",
    "StructuredRequest",
    "Summarizer",
    "anthropic_key_set",
    "check_prompt_families",
    "default_provider",
    "degraded",
    "make_providers",
    "spec_of",
    "validated",
]
