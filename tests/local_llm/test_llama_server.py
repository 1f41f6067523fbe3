"""The openai-compatible provider against a real llama.cpp HTTP server: xllamacpp's server,
started on loopback with the SmolLM2 weights, driven through the openai SDK (classify and
respond) exactly as a user's llama-server would be."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator

import pytest

from pipeline.intents.taxonomy import FALLBACK_INTENT, INTENTS
from pipeline.prompting import default_library
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.local_llm.weights import SMOLLM2, locate
from pipeline.providers.openai_compat.settings import set_command_options
from pipeline.providers.registry import ProviderOptions, make_providers
from tests.local_llm.conftest import needs_runtime

pytestmark = [
    needs_runtime,
    pytest.mark.skipif(
        importlib.util.find_spec("openai") is None, reason="the openai SDK is absent"
    ),
]
ALIAS = "smollm2-135m-test"


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(locate(SMOLLM2))
    params.model_alias = {ALIAS}  # a set of names
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # any free port
    params.n_ctx = 4096
    params.cpuparams.n_threads = 1
    params.cpuparams_batch.n_threads = 2
    params.warmup = False
    params.verbosity = 0
    server = xllamacpp.Server(params)
    address = server.listening_address
    assert address.startswith("http://127.0.0.1:")
    yield f"{address}/v1"
    del server


def test_the_openai_compatible_provider_classifies_and_replies_through_a_llama_server(
    server_url: str,
) -> None:
    set_command_options()
    settings = {"base_url": server_url, "model": ALIAS, "max_retries": 0, "timeout": 120}
    providers = make_providers("openai-compatible", ProviderOptions(settings=settings))
    result = providers.classifier.classify(
        ClassifyRequest("I'm allergic to shellfish", project_name="Weeknight cooking")
    )
    assert result.provider == "openai-compatible"
    assert result.model == ALIAS  # the name the server reports
    assert result.prompt_refs == (default_library().source("classifier")[1],)
    assert result.usage.input_tokens > 1000 and result.usage.output_tokens > 0
    assert result.intent in INTENTS
    if result.error is not None:  # a weak model's answer may degrade; it never raises
        assert result.intent == FALLBACK_INTENT

    from evals.bench.llm import _reply_request

    reply = providers.responder.respond(_reply_request())
    assert reply.text.strip() and reply.model == ALIAS
    assert reply.usage.output_tokens > 0
