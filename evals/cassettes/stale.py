"""A missed cassette, explained: which prompt changed and the command that records it again.

VCR raises CannotOverwriteExistingCassetteException inside the HTTP transport; the SDK wraps it
in APIConnectionError. `CassetteMisses` is SDK middleware that turns that into StaleCassette —
an error of the harness, not of the model, so it is raised rather than degraded into a
classification — naming the template whose hash changed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anthropic
from anthropic import APIRequest, APIResponse, CallNext

from evals.cassettes.provenance import recorded_in, rerecord_of
from pipeline.domain import PromptRef
from pipeline.errors import ConverseError
from pipeline.providers.claude import PROMPTS_HEADER, parse_prompts_header


class StaleCassette(ConverseError):
    """A replayed call has no recorded answer: the cassette must be recorded again."""


def changes(recorded: Mapping[str, PromptRef], now: Mapping[str, PromptRef]) -> list[str]:
    """What differs between the templates recorded and the ones a request now uses."""
    found: list[str] = []
    for family, ref in now.items():
        old = recorded.get(family)
        if old is None:
            found.append(f"{family}/{ref.version} (not used when the cassette was recorded)")
        elif old.version != ref.version:
            found.append(f"{family} (recorded with {old.version}, now {ref.version})")
        elif old.sha256 != ref.sha256:
            found.append(
                f"{family}/{ref.version} (sha256 {old.sha256[:12]}… when recorded, "
                f"now {ref.sha256[:12]}…)"
            )
    return found


def _where(path: object) -> str:
    try:
        shown = os.path.relpath(str(path))
    except ValueError:  # another drive
        return str(path)
    return str(Path(str(path)).resolve()) if shown.startswith("..") else shown


def explain(miss: Any, rerecord: str) -> StaleCassette:
    """The harness's message for VCR's CannotOverwriteExistingCassetteException `miss`."""
    cassette = miss.cassette
    where = _where(cassette.path)
    command = rerecord_of(Path(str(cassette.path))) or rerecord
    hint = f"re-record it with: {command}"
    reason = getattr(miss, "reason", "no_match")
    if reason == "cassette_not_found":
        return StaleCassette(f"no cassette at {where} to replay this call from", hint)
    if reason == "already_played":
        return StaleCassette(
            f"cassette {where} has no more recorded calls: this one was made more times than "
            "when it was recorded",
            hint,
        )
    headers = getattr(miss.failed_request, "headers", {}) or {}
    now = parse_prompts_header(str(headers.get(PROMPTS_HEADER, "")))
    changed = changes(recorded_in(cassette), now)
    if changed:
        return StaleCassette(
            f"cassette {where} is stale: prompt {', '.join(changed)} changed since it was recorded",
            hint,
        )
    return StaleCassette(
        f"cassette {where} has no recorded call matching this one, though no prompt template "
        "changed: the conversation, the settings or the code did",
        hint,
    )


def _vcr_miss(exc: BaseException) -> Any:
    from vcr.errors import CannotOverwriteExistingCassetteException

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, CannotOverwriteExistingCassetteException):
            return current
        current = current.__cause__ or current.__context__
    return None


class CassetteMisses(anthropic.Middleware):
    """SDK middleware: a call that missed its cassette raises StaleCassette."""

    def __init__(self, rerecord: str) -> None:
        self.rerecord = rerecord

    def handle(self, request: APIRequest, call_next: CallNext) -> APIResponse[Any]:
        """Pass the call on; explain a cassette miss instead of reporting a connection error."""
        try:
            return call_next(request)
        except anthropic.APIConnectionError as exc:
            miss = _vcr_miss(exc)
            if miss is None:
                raise
            # `from None`: the SDK retries anything whose cause chain holds a connection error.
            raise explain(miss, self.rerecord) from None


def rerecord_test(nodeid: str) -> str:
    """The command that re-records one test's synthetic cassette."""
    return f"pytest '{nodeid}' --record-mode=rewrite"


def relative(path: Path) -> str:
    """A path as the person running the command would type it."""
    return _where(path)
