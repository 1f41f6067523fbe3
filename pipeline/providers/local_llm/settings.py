"""Local-LLM settings: which weights, and how llama.cpp runs them.

Read from options (`--provider-option local-llm.KEY=VALUE`), then the environment, over the
defaults below. The defaults are pinned for repeatable answers: greedy decoding (temperature
0) with a fixed seed, one generation thread and two batch threads (the fastest split measured
on 2 cores), and a fixed context per slot. Nothing here imports the runtime.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic_settings import SettingsConfigDict

from pipeline.providers.settings import Count, ProviderSettings

PROVIDER = "local-llm"


class LocalLLMSettings(ProviderSettings):
    """How the embedded model is chosen and run (variables CONVERSE_LLM_*).

    `model` is a name from `weights.MODELS`, or `auto`: the larger model when its packages are
    installed, else the small one. `cache_dir` holds a model assembled from split parts (empty:
    the user cache folder). `slots` are llama.cpp's parallel sequences, each with its own
    cached prompt (`ctx_per_slot` tokens): the classifier's prefix keeps its slot while the
    responder and a second prompt version use others. `parallel` is how many requests are
    decoded together (at most `slots`); 1 runs each alone, so an answer never depends on what
    ran beside it.
    """

    model_config = SettingsConfigDict(env_prefix="CONVERSE_LLM_", str_strip_whitespace=True)
    label: ClassVar[str] = PROVIDER

    model: str = "auto"
    cache_dir: str = ""
    threads: Count = 1
    batch_threads: Count = 2
    slots: Count = 4
    parallel: Count = 1
    ctx_per_slot: Count = 4096
    seed: Count = 42
    classifier_max_tokens: Count = 160
    responder_max_tokens: Count = 200

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, **overrides: Any
    ) -> LocalLLMSettings:
        """Defaults < environment < explicit options (None means not given)."""
        return cls.read(environ, {}, overrides)


# Each setting and the environment variable that sets it; options override both.
ENV_VARS: dict[str, str] = LocalLLMSettings.env_vars()
