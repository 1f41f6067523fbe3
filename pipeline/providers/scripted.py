"""The scripted provider: classifications and replies read from a fixture file.

For plumbing tests and the demo. Each entry matches a message (case and spacing ignored) and,
optionally, the intent the previous companion turn served:

    turns:
      - message: "yes"
        after: remember_about_me
        intent: remember_about_me
        params: {}
        reading: {relation: confirm}   # optional: how it answers what was pending
                                       # (answers: 3 names the pending item #3)
        restore: false                 # optional: it asks to put something back
        question: false                # optional: it asks something (never a fact to store)
        reply: "Got it."        # optional; otherwise a deterministic reply is composed

An entry may list the message's acts instead of one intent (docs/intents.md, "Acts"):

      - message: "yes — and I've got a bad knee"
        acts:
          - {intent: remember_about_me, relation: confirm}
          - {intent: remember_about_me, params: {personal_fact: "You've got a bad knee"}}
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pipeline.domain import Reply
from pipeline.english import ENGLISH
from pipeline.errors import ConverseError
from pipeline.files import read_bounded
from pipeline.providers.answers import degraded, validated, validated_acts
from pipeline.providers.base import ClassifyRequest, Providers, RespondRequest
from pipeline.providers.replies import compose_reply
from pipeline.reading import ClassifiedIntent

NAME = "scripted"


def _key(message: str) -> str:
    return " ".join(message.casefold().split())


@dataclass(frozen=True)
class ScriptEntry:
    """One scripted answer."""

    message: str
    intent: str
    params: dict[str, Any]
    after: str | None = None
    reply: str | None = None
    reading: dict[str, Any] | None = None
    restore: bool = False
    question: bool = False
    profile_field: str | None = None
    acts: list[Any] | None = None


# The largest fixture is a few KB; a script is read whole, so its size is bounded.
MAX_SCRIPT_BYTES = 2_000_000


def load_script(path: Path) -> list[ScriptEntry]:
    """Read a script file; errors name the file and the entry."""
    try:
        data = yaml.safe_load(read_bounded(path, MAX_SCRIPT_BYTES, "script")) or {}
    except FileNotFoundError as exc:
        raise ConverseError(f"script {path} not found", "pass an existing fixture file") from exc
    except OSError as exc:
        raise ConverseError(f"script {path} cannot be read: {exc.strerror}", "") from exc
    except yaml.YAMLError as exc:
        raise ConverseError(f"script {path} is not valid YAML: {exc}", "fix the file") from exc
    entries: list[ScriptEntry] = []
    for index, raw in enumerate(data.get("turns") or []):
        if (
            not isinstance(raw, dict)
            or "message" not in raw
            or not ("intent" in raw or "acts" in raw)
        ):
            raise ConverseError(
                f"script {path}, entry {index + 1}: needs `message` and `intent` (or `acts`)",
                "fix the entry",
            )
        entries.append(
            ScriptEntry(
                message=str(raw["message"]),
                intent=str(raw.get("intent", "")),
                params=dict(raw.get("params") or {}),
                after=raw.get("after"),
                reply=raw.get("reply"),
                reading=raw.get("reading"),
                restore=raw.get("restore") is True,
                question=raw.get("question") is True,
                profile_field=raw.get("profile_field"),
                acts=raw.get("acts"),
            )
        )
    return entries


class ScriptedProvider:
    """Classifies and responds from a script: deterministic, for tests and the demo."""

    name = NAME
    model = "scripted-fixture"

    def __init__(self, entries: list[ScriptEntry]) -> None:
        self._entries = entries

    @classmethod
    def from_file(cls, path: Path) -> ScriptedProvider:
        """Load the script at `path`."""
        return cls(load_script(path))

    def _find(self, message: str, after: str | None) -> ScriptEntry | None:
        key = _key(message)
        candidates = [e for e in self._entries if _key(e.message) == key]
        for entry in candidates:
            if entry.after is not None and entry.after == after:
                return entry
        return next((e for e in candidates if e.after is None), None)

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """The scripted classification; an unscripted message degrades with an error."""
        prior = request.prior_companion
        entry = self._find(request.message, prior.intent if prior else None)
        if entry is None:
            return degraded(
                f"no scripted entry for {request.message!r}", provider=NAME, model=self.model
            )
        if entry.acts is not None:
            return validated_acts(entry.acts, provider=NAME, model=self.model, confidence=1.0)
        return validated(
            entry.intent,
            entry.params,
            provider=NAME,
            model=self.model,
            confidence=1.0,
            reading=entry.reading,
            restore=entry.restore,
            question=entry.question,
            profile_field=entry.profile_field,
        )

    def respond(self, request: RespondRequest) -> Reply:
        """The scripted reply, or one composed from the operation result."""
        prior = request.history[-1] if request.history else None
        entry = self._find(request.message, prior.intent if prior and prior.intent else None)
        text = entry.reply if entry is not None and entry.reply else compose_reply(request.route)
        return Reply(text=text, provider=NAME, model=self.model)


def scripted_providers(script: Path | None) -> Providers:
    """The scripted provider over the fixture at `script`; its answers depend on that file."""
    if script is None:
        raise ConverseError("the scripted provider needs a script", "pass --script PATH")
    scripted = ScriptedProvider.from_file(script)
    return Providers(
        scripted,
        scripted,
        "scripted (fixture answers, not a model)",
        model=scripted.model,
        data_files=(script,),
        lexicon=ENGLISH,  # the fixtures are English conversations (pipeline/lexicon.py)
    )
