"""The converse pipeline: a companion that remembers personal things, turn by turn."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = ["Store", "TurnOutcome", "converse", "open_store"]
