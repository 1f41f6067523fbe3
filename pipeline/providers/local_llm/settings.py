"""Local-LLM settings: which weights, and how llama.cpp runs them.

Read from options (`--provider-option local-llm.KEY=VALUE`), then the environment, over the
defaults below. The defaults are pinned for repeatable answers: greedy decoding (temperature
0) with a fixed seed, one generation thread and two batch threads (the fastest split measured
on 2 cores), and a fixed context per slot. Nothing here imports the runtime.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pipeline.providers.settings import layered

PROVIDER = "local-llm"

# Each setting and the environment variable that sets it; options override both.
ENV_VARS: dict[str, str] = {
    "model": "CONVERSE_LLM_MODEL",
    "cache_dir": "CONVERSE_LLM_CACHE_DIR",
    "threads": "CONVERSE_LLM_THREADS",
    "batch_threads": "CONVERSE_LLM_BATCH_THREADS",
    "parallel": "CONVERSE_LLM_PARALLEL",
    "classifier_max_tokens": "CONVERSE_LLM_CLASSIFIER_MAX_TOKENS",
    "responder_max_tokens": "CONVERSE_LLM_RESPONDER_MAX_TOKENS",
}


@dataclass(frozen=True)
class LocalLLMSettings:
    """How the embedded model is chosen and run.

    `model` is a name from `weights.MODELS`, or `auto`: the larger model when its packages are
    installed, else the small one. `cache_dir` holds a model assembled from split parts (empty:
    the user cache folder). `slots` are llama.cpp's parallel sequences, each with its own
    cached prompt (`ctx_per_slot` tokens): the classifier's prefix keeps its slot while the
    responder and a second prompt version use others. `parallel` is how many requests are
    decoded together (at most `slots`); 1 runs each alone, so an answer never depends on what
    ran beside it.
    """

    model: str = "auto"
    cache_dir: str = ""
    threads: int = 1
    batch_threads: int = 2
    slots: int = 4
    parallel: int = 1
    ctx_per_slot: int = 4096
    seed: int = 42
    classifier_max_tokens: int = 160
    responder_max_tokens: int = 200

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, **overrides: Any
    ) -> LocalLLMSettings:
        """Defaults < environment < explicit options (None means not given)."""
        env = os.environ if environ is None else environ
        return layered(
            cls,
            env_vars=ENV_VARS,
            environ=env,
            command_options={},
            overrides=overrides,
            label=PROVIDER,
            strip_text=True,
        )
