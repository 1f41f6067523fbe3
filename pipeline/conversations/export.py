"""A person's kept memories as Markdown: Your Story first, then each project, oldest first,
each memory with what it holds and the conversation it came from."""

from __future__ import annotations

from itertools import groupby

from pipeline.conversation_models import ENTITY_LABELS, YOUR_STORY, Memory, MemoryStatus
from pipeline.store import Store
from pipeline.store import memories as repo
from pipeline.store.people import get_person_by_id


def _line(text: str) -> str:
    # Markdown reads people's text as markup: heading and list starts, emphasis, links.
    text = " ".join(text.split())
    for mark in ("\\", "*", "_", "`", "[", "]", "<", ">", "#"):
        text = text.replace(mark, "\\" + mark)
    return text


def memories_markdown(store: Store, person_id: int) -> str:
    """The Markdown export of the person's confirmed memories."""
    with store.read() as session:
        name = get_person_by_id(session, person_id).name
        kept = repo.memories_of(session, person_id, status=MemoryStatus.CONFIRMED)
    lines = [f"# Memories of {_line(name)}", ""]
    if not kept:
        lines += ["No memories kept yet: they come from closed conversations.", ""]

    def where(memory: Memory) -> tuple[int, str]:
        name = memory.destination.name
        return (0 if name == YOUR_STORY else 1, name)

    for (_, destination), group in groupby(sorted(kept, key=where), key=where):
        lines += [f"## {_line(destination)}", ""]
        for memory in group:
            when = memory.confirmed_at or memory.created_at
            lines += [
                f"### {when:%Y-%m-%d} — conversation {memory.conversation_id}",
                "",
                _line(memory.narrative),
                "",
            ]
            if memory.edited:
                lines += [f"*As first extracted:* {_line(memory.original_narrative)}", ""]
            for entity in memory.entities:
                state = " (resolved)" if entity.status.value == "resolved" else ""
                lines.append(
                    f"- {ENTITY_LABELS.get(entity.kind, entity.kind)}: {_line(entity.text)}{state}"
                )
            if memory.entities:
                lines.append("")
    return "\n".join(lines).rstrip() + "\n"
