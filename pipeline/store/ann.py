"""Approximate nearest-neighbour indexes of stored vectors, one per engagement and model.

An index is a usearch HNSW graph (cosine, vectors kept as f16 by default) over the vectors of
one engagement's searchable assertions, keyed by assertion id. It is saved beside a SQLite
store (`converse.db` -> `converse.db.ann/`), or under CONVERSE_ANN_DIR for another database,
or kept in this process only; wherever it lives, the vector change log (migration 0010) says
what changed since the sequence number it records, so any copy can be brought up to date.
Keeping it in step with the store is memory's business (pipeline/memory/ann_search.py); this
module reads and writes the files, and removes erased vectors from them.

usearch is an optional dependency (`pip install "converse-harness[ann]"`): without it every
search is exact.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import os
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.orm import Session

from pipeline.settings import checked_settings

if TYPE_CHECKING:
    from usearch.index import Index

FORMAT = 1
CONNECTIVITY = 16
EXPANSION_ADD = 128
# A removed entry's slot keeps its bytes until reused; these keys (above any assertion id)
# refill freed slots so an erased vector leaves no trace in the file.
_FILLER_KEY = 1 << 62

Dtype = Literal["f32", "f16", "i8"]


class AnnSettings(BaseSettings):
    """CONVERSE_ANN_* settings (docs/memory.md, "Search at scale")."""

    model_config = SettingsConfigDict(env_prefix="CONVERSE_ANN_", extra="ignore")

    # An engagement with fewer searchable facts than this is searched exactly.
    min_vectors: int = Field(5_000, ge=1)
    # Where indexes of a database that is not a SQLite file are saved (unset: in memory only).
    dir: Path | None = None
    dtype: Dtype = "f16"
    # How many nearest vectors the index proposes; the search re-scores them exactly.
    candidates: int = Field(64, ge=5, le=4_096)
    # Measured at 1M synthetic vectors (docs/benchmarks.md): 64 -> recall@5 0.891, 128 ->
    # 0.976, 256 -> 0.996, each with 64 candidates re-scored.
    expansion: int = Field(256, ge=8, le=4_096)


def ann_settings() -> AnnSettings:
    """The CONVERSE_ANN_* settings now in the environment, or a one-line error naming one."""
    return checked_settings(AnnSettings, "CONVERSE_ANN_")


def _index_class() -> type[Index]:
    """usearch's Index, imported after onnxruntime: usearch 2.26's compiled module loaded
    first makes a later `import onnxruntime` crash the process (a segmentation fault, seen
    here with onnxruntime 1.32), and the local model may load at any time after a search."""
    with contextlib.suppress(ImportError):
        import onnxruntime  # noqa: F401
    from usearch.index import Index

    return Index


@functools.cache
def available() -> bool:
    """Whether the index library is installed (the `ann` extra); found without importing it,
    so searches that never reach an index never load it."""
    return importlib.util.find_spec("usearch") is not None


def _new_index(dim: int, dtype: Dtype, expansion: int) -> Index:
    return _index_class()(
        ndim=dim,
        metric="cos",
        dtype=dtype,
        connectivity=CONNECTIVITY,
        expansion_add=EXPANSION_ADD,
        expansion_search=expansion,
    )


@dataclass
class VectorIndex:
    """One engagement's vectors under one embedder, and the change-log position they reflect."""

    engagement_id: int
    model: str
    embedder: str
    dim: int
    dtype: Dtype
    seq: int = 0
    index: Any = None
    # Set when entries were removed outside the change log (an erasure): the next sync
    # compares every id with the store instead of replaying the log.
    verify: bool = False
    unsaved: int = 0
    path: Path | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.index is None:
            self.index = _new_index(self.dim, self.dtype, ann_settings().expansion)

    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, assertion_id: int) -> bool:
        return bool(self.index.contains(assertion_id))

    def keys(self) -> set[int]:
        """Every assertion id in the index."""
        return {int(k) for k in np.asarray(self.index.keys)}

    def upsert(self, assertion_ids: Sequence[int], vectors: npt.NDArray[np.float32]) -> None:
        """Add these vectors, replacing any already stored under the same ids."""
        if not assertion_ids:
            return
        keys = np.asarray(assertion_ids, dtype=np.uint64)
        present = [k for k in assertion_ids if k in self]
        if present:
            self.index.remove(present)
        self.index.add(keys, np.asarray(vectors, dtype=np.float32), threads=2)
        self.unsaved += len(assertion_ids)

    def remove(self, assertion_ids: Iterable[int]) -> int:
        """Remove these ids (absent ones are ignored) and overwrite their bytes; how many."""
        present = [k for k in assertion_ids if k in self]
        if present:
            self.index.remove(present)
            self._scrub()
            self.unsaved += len(present)
        return len(present)

    def _scrub(self) -> None:
        """Refill every free slot with a constant vector, then free it again."""
        free = int(self.index.stats.nodes) - len(self.index)
        if free <= 0:
            return
        filler = np.zeros((free, self.dim), dtype=np.float32)
        filler[:, 0] = 1.0
        keys = np.arange(_FILLER_KEY, _FILLER_KEY + free, dtype=np.uint64)
        self.index.add(keys, filler, threads=1)
        self.index.remove(keys)

    def search(self, vector: npt.NDArray[np.float32], count: int) -> list[int]:
        """The ids of up to `count` nearest vectors, nearest first."""
        if len(self) == 0:
            return []
        found = self.index.search(np.asarray(vector, dtype=np.float32), count, threads=1)
        return [int(k) for k in np.asarray(found.keys)]

    def meta(self) -> dict[str, Any]:
        """What the file beside the index records."""
        return {
            "format": FORMAT,
            "engagement_id": self.engagement_id,
            "model": self.model,
            "embedder": self.embedder,
            "dim": self.dim,
            "dtype": self.dtype,
            "seq": self.seq,
            "verify": self.verify,
            "count": len(self),
        }

    def save(self) -> None:
        """Write the index and its meta beside each other, each replaced atomically."""
        if self.path is None:
            self.unsaved = 0
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + f".{os.getpid()}.partial")
        self.index.save(str(partial))
        meta_path = _meta_path(self.path)
        partial_meta = meta_path.with_name(meta_path.name + f".{os.getpid()}.partial")
        partial_meta.write_text(json.dumps(self.meta()), encoding="utf-8")
        os.replace(partial, self.path)
        os.replace(partial_meta, meta_path)
        self.unsaved = 0


def _meta_path(path: Path) -> Path:
    return path.with_suffix(".json")


def _slug(model: str) -> str:
    readable = re.sub(r"[^A-Za-z0-9_.-]+", "-", model)[:40]
    return f"{readable}-{hashlib.sha256(model.encode()).hexdigest()[:8]}"


def store_key(session: Session) -> str:
    """Names the database a session reads, password hidden."""
    return session.get_bind().engine.url.render_as_string(hide_password=True)


def index_dir(session: Session) -> Path | None:
    """Where this database's indexes are saved, or None when they live in memory only."""
    url = session.get_bind().engine.url
    if url.get_backend_name() == "sqlite":
        if url.database in (None, "", ":memory:"):
            return None
        return Path(f"{url.database}.ann")
    root = ann_settings().dir
    if root is None:
        return None
    return root / hashlib.sha256(store_key(session).encode()).hexdigest()[:16]


def index_path(session: Session, engagement_id: int, model: str) -> Path | None:
    """The file of one engagement's index under one model."""
    folder = index_dir(session)
    return None if folder is None else folder / f"{engagement_id}-{_slug(model)}.usearch"


# Indexes this process has open, by (database, engagement, model), shared by its threads:
# usearch does not guard a search against a concurrent removal, so every use holds LOCK.
_OPEN: dict[tuple[str, int, str], VectorIndex] = {}
LOCK = threading.RLock()


def cached(session: Session, engagement_id: int, model: str) -> VectorIndex | None:
    """The open index of this engagement, else the saved one, else None."""
    key = (store_key(session), engagement_id, model)
    found = _OPEN.get(key)
    if found is not None:
        return found
    path = index_path(session, engagement_id, model)
    if path is None or not path.exists():
        return None
    loaded = _load(path)
    if loaded is not None:
        _OPEN[key] = loaded
    return loaded


def remember(session: Session, index: VectorIndex) -> None:
    """Keep this index open for the next search of this process."""
    _OPEN[(store_key(session), index.engagement_id, index.model)] = index


def forget_open() -> None:
    """Close every open index (the saved files stay)."""
    _OPEN.clear()


def _load(path: Path) -> VectorIndex | None:
    """A saved index, or None when it cannot be read (it is then rebuilt from the store)."""
    try:
        meta = json.loads(_meta_path(path).read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT:
            return None
        index = _index_class().restore(str(path), expansion_search=ann_settings().expansion)
        if index is None or index.ndim != meta["dim"]:
            return None
        return VectorIndex(
            engagement_id=int(meta["engagement_id"]),
            model=str(meta["model"]),
            embedder=str(meta["embedder"]),
            dim=int(meta["dim"]),
            dtype=meta["dtype"],
            seq=int(meta["seq"]),
            index=index,
            verify=bool(meta.get("verify", False)),
            path=path,
        )
    except (OSError, ValueError, KeyError, RuntimeError):
        return None


def _indexes_of(session: Session, engagement_id: int) -> Iterator[VectorIndex]:
    """Every index of this engagement, open or saved, whatever its model."""
    seen: set[Path | None] = set()
    store = store_key(session)
    for (db, eid, _), index in list(_OPEN.items()):
        if db == store and eid == engagement_id:
            seen.add(index.path)
            yield index
    folder = index_dir(session)
    if folder is None or not folder.exists():
        return
    for path in folder.glob(f"{engagement_id}-*.usearch"):
        if path in seen:
            continue
        loaded = _load(path)
        if loaded is not None:
            yield loaded


def remove_erased(session: Session, erased: Sequence[tuple[int, int]]) -> None:
    """Take erased (engagement, assertion) pairs out of every index, open or saved, now.

    Called inside the erasing transaction: the removal is written at once, so no file keeps
    an erased vector, and the index is marked for a full comparison with the store at its
    next sync (should the transaction roll back, the comparison puts the entries back).
    """
    if not erased:
        return
    by_engagement: dict[int, set[int]] = {}
    for engagement_id, assertion_id in erased:
        by_engagement.setdefault(engagement_id, set()).add(assertion_id)
    with LOCK:
        _remove(session, by_engagement)


def _remove(session: Session, by_engagement: dict[int, set[int]]) -> None:
    for engagement_id, ids in by_engagement.items():
        if not available():  # files from when the extra was installed: rebuilt if it returns
            _delete_files(session, engagement_id)
            continue
        for index in _indexes_of(session, engagement_id):
            if index.remove(ids):
                index.verify = True
                index.save()


def _delete_files(session: Session, engagement_id: int) -> None:
    folder = index_dir(session)
    if folder is None or not folder.exists():
        return
    for path in folder.glob(f"{engagement_id}-*.usearch"):
        path.unlink(missing_ok=True)
        _meta_path(path).unlink(missing_ok=True)
