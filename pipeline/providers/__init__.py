"""Model providers: the Classifier and Responder protocols and their implementations."""

from pipeline.providers.base import (
    Classifier,
    ClassifyRequest,
    Responder,
    RespondRequest,
    degraded,
    validated,
)
from pipeline.providers.scripted import ScriptedProvider

__all__ = [
    "Classifier",
    "ClassifyRequest",
    "RespondRequest",
    "Responder",
    "ScriptedProvider",
    "degraded",
    "validated",
]
