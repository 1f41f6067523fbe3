"""Model providers: the Classifier and Responder protocols and their implementations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

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
    "Classifier": ".base",
    "ClassifyRequest": ".base",
    "Responder": ".base",
    "RespondRequest": ".base",
    "degraded": ".base",
    "validated": ".base",
    "ScriptedProvider": ".scripted",
}

__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = [
    "Classifier",
    "ClassifyRequest",
    "RespondRequest",
    "Responder",
    "ScriptedProvider",
    "degraded",
    "validated",
]
