"""The converse pipeline: a companion that remembers personal things, turn by turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

if TYPE_CHECKING:
    from pipeline.converse import TurnOutcome, converse
    from pipeline.store import Store, open_store

# Loaded on first use: every `pipeline.*` import runs this file, and the CLI's help and
# everyday commands must not pay for the whole pipeline.
_LAZY = {
    "TurnOutcome": "pipeline.converse",
    "converse": "pipeline.converse",
    "Store": "pipeline.store",
    "open_store": "pipeline.store",
}

__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = ["Store", "TurnOutcome", "converse", "open_store"]
