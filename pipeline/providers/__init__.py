"""Model providers: the Classifier and Responder protocols and their implementations."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pipeline.providers.base import (
        Classifier,
        ClassifyRequest,
        Responder,
        RespondRequest,
        degraded,
        validated,
    )
    from pipeline.providers.scripted import ScriptedProvider

# Loaded on first use, so that reading a provider's settings (pipeline.providers.claude.settings,
# read by every command) does not import the whole pipeline through base.
_LAZY = {
    "Classifier": "base",
    "ClassifyRequest": "base",
    "Responder": "base",
    "RespondRequest": "base",
    "degraded": "base",
    "validated": "base",
    "ScriptedProvider": "scripted",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "Classifier",
    "ClassifyRequest",
    "RespondRequest",
    "Responder",
    "ScriptedProvider",
    "degraded",
    "validated",
]
