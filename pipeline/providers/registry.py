"""Build providers by name: scripted, local, claude."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import ConverseError
from pipeline.providers.base import Classifier, Responder
from pipeline.providers.scripted import ScriptedProvider

PROVIDER_NAMES = ("local", "claude", "scripted")


@dataclass(frozen=True)
class Providers:
    """A classifier and a responder, with a label saying what they are."""

    classifier: Classifier
    responder: Responder
    label: str


def make_providers(name: str, *, script: Path | None = None, **options: Any) -> Providers:
    """The providers called `name`; options go to the provider's constructor."""
    if name == "scripted":
        if script is None:
            raise ConverseError("the scripted provider needs a script", "pass --script PATH")
        scripted = ScriptedProvider.from_file(script)
        return Providers(scripted, scripted, "scripted (fixture answers, not a model)")
    if name == "local":
        from pipeline.providers.local import local_providers

        return local_providers(**options)
    if name == "claude":
        from pipeline.providers.claude import claude_providers

        return claude_providers(**options)
    raise ConverseError(f"unknown provider {name!r}", f"choose one of: {', '.join(PROVIDER_NAMES)}")
