"""The labelled examples (fixtures/local_model/examples.yaml) and their cached embeddings.

The file has two sections: `intents` (intent name -> example operator messages) and `replies`
(reply kind -> short replies that only make sense right after a companion offer). An intent
the file has no examples of brings its own (`IntentSpec.examples`), added after the file's.
Embedding the ~600 examples takes a couple of seconds, so the vectors — and the probe fitted
on them — are cached as one .npz file keyed by the file's sha256 (with any examples the specs
add), the model name and the feature set.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pipeline.config import fixtures_dir
from pipeline.errors import ConverseError
from pipeline.intents.taxonomy import INTENTS
from pipeline.local_settings import local_settings, user_cache_dir, yaml_mapping_and_text
from pipeline.memory.embeddings import Embedder, Vectors, embedder_id

REPLY_KINDS = ("confirm", "reject", "decline_cross_promotion", "refine")


def examples_path() -> Path:
    """The examples file (`CONVERSE_LOCAL_EXAMPLES` overrides)."""
    override = local_settings().examples
    return override or fixtures_dir() / "local_model" / "examples.yaml"


def cache_dir() -> Path:
    """Where derived vectors are cached (`CONVERSE_CACHE_DIR`, else ~/.cache/converse-harness)."""
    return local_settings().cache_dir or user_cache_dir()


@dataclass(frozen=True)
class Examples:
    """Example texts with their labels, in file order, and the file's sha256."""

    texts: tuple[str, ...]
    labels: tuple[str, ...]
    reply_texts: tuple[str, ...]
    reply_kinds: tuple[str, ...]
    sha256: str

    @property
    def intents(self) -> tuple[str, ...]:
        """The labelled intents, in first-seen order."""
        return tuple(dict.fromkeys(self.labels))


def _strings(path: Path, section: str, name: str, raw: object) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(m, str) and m.strip() for m in raw):
        raise ConverseError(
            f"{path}: {section}.{name} must be a list of non-empty strings", "fix the examples file"
        )
    return [" ".join(m.split()) for m in raw]


def load_examples(path: Path | None = None) -> Examples:
    """Read and check the examples file; errors name the file and the section."""
    path = path or examples_path()
    data, text = yaml_mapping_and_text(
        path,
        "examples file",
        "point CONVERSE_LOCAL_EXAMPLES at an examples file like fixtures/local_model/examples.yaml",
    )
    raw_bytes = text.encode("utf-8")
    intents = data.get("intents")
    if not isinstance(intents, dict) or not intents:
        raise ConverseError(f"{path} has no `intents` section", "add one (intent -> messages)")
    texts: list[str] = []
    labels: list[str] = []
    for name, messages in intents.items():
        if name not in INTENTS:
            raise ConverseError(
                f"{path}: unknown intent {name!r}", f"use one of: {', '.join(INTENTS)}"
            )
        found = _strings(path, "intents", name, messages)
        texts += found
        labels += [name] * len(found)
    # Only intents the file lacks, so the released examples (and the vectors cached for them)
    # stay as they are; the added ones join the cache key.
    added = {n: list(s.examples) for n, s in INTENTS.items() if s.examples and n not in intents}
    for name, messages in added.items():
        found = _strings(path, "the spec's examples", name, messages)
        texts += found
        labels += [name] * len(found)
    if added:
        raw_bytes += json.dumps(added, sort_keys=True).encode("utf-8")
    reply_texts: list[str] = []
    reply_kinds: list[str] = []
    for kind, messages in (data.get("replies") or {}).items():
        if kind not in REPLY_KINDS:
            raise ConverseError(
                f"{path}: unknown reply kind {kind!r}", f"use one of: {', '.join(REPLY_KINDS)}"
            )
        found = _strings(path, "replies", kind, messages)
        reply_texts += found
        reply_kinds += [kind] * len(found)
    return Examples(
        texts=tuple(texts),
        labels=tuple(labels),
        reply_texts=tuple(reply_texts),
        reply_kinds=tuple(reply_kinds),
        sha256=hashlib.sha256(raw_bytes).hexdigest(),
    )


Arrays = dict[str, npt.NDArray[np.float32]]


def cached_arrays(
    examples: Examples,
    embedder: Embedder,
    key_extra: str,
    derive: Callable[[Vectors, Vectors], Arrays],
) -> Arrays:
    """Example and reply embeddings plus whatever `derive` computes from them, cached on disk.

    The cache key covers the examples file, the model and `key_extra` (the feature set and
    probe settings), so any change recomputes; an unwritable cache only costs time.
    """
    key = hashlib.sha256(
        f"{examples.sha256}|{embedder_id(embedder)}|{key_extra}".encode()
    ).hexdigest()[:20]
    path = cache_dir() / f"examples-{embedder.model_name}-{key}.npz"
    try:
        with np.load(path) as stored:
            return {name: stored[name] for name in stored.files}
    except (OSError, ValueError, KeyError):
        pass
    vectors = embedder.embed(list(examples.texts))
    replies = embedder.embed(list(examples.reply_texts))
    arrays: Arrays = {"examples": vectors, "replies": replies, **derive(vectors, replies)}
    _save(path, arrays)
    return arrays


def _save(path: Path, arrays: Arrays) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as tmp:
            np.savez(tmp, **arrays)  # type: ignore[arg-type]
        os.replace(tmp.name, path)
    except OSError:
        return
