"""How `converse conversation` shows a conversation and its review (rich, text escaped)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.panel import Panel
from rich.text import Text

from pipeline.cli.common import shown

if TYPE_CHECKING:
    from pipeline.conversation_models import Conversation, Memory, Preview


def status_line(conversation: Conversation) -> str:
    """One line: id, state, paused, turns, when it started and last heard."""
    paused = ", paused" if conversation.is_paused else ""
    last = conversation.last_message_at or conversation.started_at
    return (
        f"#{conversation.id}  {conversation.status.value}{paused}  "
        f"{conversation.message_count} turns  started {conversation.started_at:%Y-%m-%d %H:%M}"
        f"  last {last:%Y-%m-%d %H:%M}"
    )


def memory_panel(memory: Memory, title: str) -> Panel:
    """A memory: its narrative, what it holds, where it goes, and the deltas it carries."""
    from pipeline.conversation_models import ENTITY_LABELS  # pydantic: only to show one

    lines: list[Text | str] = [Text(memory.narrative)]
    if memory.edited:
        lines.append(Text(f"(edited; extracted: {memory.original_narrative})", style="dim"))
    lines.append("")
    held = [e for e in memory.entities]
    if held:
        lines.append("Extracted:")
        for entity in held:
            label = ENTITY_LABELS.get(entity.kind, entity.kind)
            lines.append(Text(f"  • [{entity.id}] {label}: {entity.text}"))
    else:
        lines.append("Extracted: nothing")
    resolves = [d for d in memory.deltas if d.kind == "resolve"]
    for delta in resolves:
        lines.append(Text(f"  ✓ resolves item {delta.entity_id}: {delta.text}"))
    lines.append("")
    lines.append(Text(f"Destination: {memory.destination.name}"))
    lines.append(Text(f"Made by: {memory.method}", style="dim"))
    return Panel(Group(*lines), title=shown(title), title_align="left")


def show_preview(console: Console, preview: Preview) -> None:
    """The review screen: each memory, the suggestion, and what every stage did."""
    console.print(status_line(preview.conversation), highlight=False)
    if not preview.memories:
        console.print(
            "No memory extracted yet: close the conversation to extract one.", highlight=False
        )
        return
    for index, memory in enumerate(preview.memories, start=1):
        state = memory.status.value
        title = f"Memory {memory.id} ({state})" + (
            f" — {index} of {len(preview.memories)}" if len(preview.memories) > 1 else ""
        )
        console.print(memory_panel(memory, title))
    if preview.suggestion is not None:
        s = preview.suggestion
        console.print(
            f"Suggested destination: {shown(s.destination)} ({s.confidence:.0%}) — "
            f"{shown(s.reasoning)}",
            highlight=False,
        )
    for stage in preview.stages:
        note = f" — error: {shown(stage.error)}" if stage.error else ""
        console.print(f"  {stage.stage}: {shown(stage.method)}{note}", highlight=False, style="dim")
    console.print(
        "Destinations: " + ", ".join(shown(d) for d in preview.destinations), highlight=False
    )


Transcript = Sequence[tuple[int, str, str, datetime]]


def show_transcript(console: Console, turns: Transcript, person: str) -> None:
    """Each turn with its id: `converse explain ID` takes the id of one of the person's."""
    for turn_id, role, content, when in turns:
        who = person if role == "operator" else "companion"
        console.print(
            f"[dim]#{turn_id} {when:%H:%M}[/] {shown(who)}: {shown(content)}", highlight=False
        )


def preview_json(preview: Preview, turns: Transcript) -> str:
    """The preview as JSON, with the transcript's turns (ids included) under `turns`."""
    data = json.loads(preview.model_dump_json())
    data["turns"] = [
        {"turn_id": turn_id, "role": role, "content": content, "at": when.isoformat()}
        for turn_id, role, content, when in turns
    ]
    return json.dumps(data, ensure_ascii=False)
