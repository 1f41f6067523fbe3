"""The request side of the wire format: history as messages, system blocks, provenance header."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from pipeline.assemble import AssembledPrompt
from pipeline.domain import HistoryTurn, PromptRef, Role

if TYPE_CHECKING:  # the SDK's types only: reading a cassette's header needs no SDK
    from anthropic.types import MessageParam, TextBlockParam

# Every request names the templates that produced it, so a recorded exchange (a cassette) can
# be checked against the current templates without re-running anything.
PROMPTS_HEADER = "x-converse-prompts"

# Operation data worth showing the classifier on a companion turn: what was offered, matched or
# dropped, which is what the continuation rules turn on.
_NOTE_KEYS = (
    "action",
    "personal_fact",
    "previous_fact",
    "matched_fact",
    "retracted_fact",
    "forget_description",
    "knowledge",
    "error",
)


def prompts_header(refs: Iterable[PromptRef]) -> dict[str, str]:
    """The provenance header: `family/version=sha256` for each template, comma-separated."""
    return {PROMPTS_HEADER: ",".join(f"{r.family}/{r.version}={r.sha256}" for r in refs)}


def parse_prompts_header(value: str) -> dict[str, PromptRef]:
    """The templates a request names, by family; malformed entries are skipped."""
    found: dict[str, PromptRef] = {}
    for item in value.split(","):
        path, _, sha = item.strip().partition("=")
        family, _, version = path.rpartition("/")
        if family and version and sha:
            found[family] = PromptRef(family=family, version=version, sha256=sha)
    return found


def classifier_note(turn: HistoryTurn) -> str:
    """What a companion turn did, in brackets, for the classifier's continuation rules."""
    if not turn.intent:
        return ""
    data = turn.operation_data
    details = [
        f"{key}: {json.dumps(data[key], ensure_ascii=False)}"
        for key in _NOTE_KEYS
        if isinstance(data.get(key), str) and data[key]
    ]
    number = data.get("assertion_display_number")
    if isinstance(number, int) and not isinstance(number, bool):
        details.append(f"number: #{number}")
    for key in ("candidates", "facts"):  # what a choice or a confirmation picks among
        listed_items = data.get(key)
        if isinstance(listed_items, list) and listed_items:
            listed = "; ".join(
                f"#{c.get('display_number')} {c.get('content')}"
                for c in listed_items
                if isinstance(c, dict)
            )
            details.append(f"{key}: {listed}")
    detail = f" — {'; '.join(details)}" if details else ""
    return f"[this turn served {turn.intent}{detail}]"


def history_messages(
    history: Sequence[HistoryTurn], message: str, *, notes: bool = False
) -> list[MessageParam]:
    """Earlier turns then the current message: operator -> user, companion -> assistant.

    The API wants the first message from the user and roles alternating, so a leading companion
    turn is dropped and consecutive turns of one role are joined.
    """
    turns: list[tuple[str, str]] = []
    for turn in history:
        role = "user" if turn.role is Role.OPERATOR else "assistant"
        text = turn.content.strip()
        if role == "assistant" and notes:
            note = classifier_note(turn)
            text = f"{text}\n\n{note}" if note else text
        if not text or (not turns and role == "assistant"):
            continue
        if turns and turns[-1][0] == role:
            turns[-1] = (role, f"{turns[-1][1]}\n\n{text}")
        else:
            turns.append((role, text))
    if turns and turns[-1][0] == "user":
        turns[-1] = ("user", f"{turns[-1][1]}\n\n{message}")
    else:
        turns.append(("user", message))
    return [_message(role, text) for role, text in turns]


def _message(role: str, text: str) -> MessageParam:
    if role == "user":
        return {"role": "user", "content": text}
    return {"role": "assistant", "content": text}


def cached_block(text: str) -> TextBlockParam:
    """A system text block marked as a prompt-cache breakpoint."""
    return {"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}


# The classifier templates end with this section: the turn's project. Everything before it
# (taxonomy, rules, examples) is the same for every request, so it is the cached block and
# one cache entry serves every project (docs/prompts.md, "When caching engages").
CLASSIFIER_TURN_SECTION = "\nCONVERSATION\n"


def classifier_system(text: str) -> list[TextBlockParam]:
    """The classifier's system prompt as a cached stable block and the per-turn section."""
    head, marker, tail = text.partition(CLASSIFIER_TURN_SECTION)
    if not marker:
        return [cached_block(text)]
    return [cached_block(head), {"type": "text", "text": (marker + tail).lstrip("\n")}]


def responder_system(prompt: AssembledPrompt) -> list[TextBlockParam]:
    """The assembled prompt as two blocks: the stable prefix (cached), then the instruction."""
    blocks: list[TextBlockParam] = []
    if prompt.stable_prefix:
        blocks.append(cached_block(prompt.stable_prefix))
    if prompt.instruction:
        blocks.append({"type": "text", "text": prompt.instruction})
    return blocks
