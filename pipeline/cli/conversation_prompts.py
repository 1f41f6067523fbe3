"""The interactive review of `converse conversation review`: the preview, then a prompt for
each step until the person confirms, resumes or leaves it for later."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.cli.common import console, shown
from pipeline.cli.conversation_view import show_preview
from pipeline.errors import ConverseError

if TYPE_CHECKING:
    from pipeline.conversation_models import Preview
    from pipeline.conversations import SplitPart
    from pipeline.memory.embeddings import Embedder
    from pipeline.store import Store


def embedder_for(no_embed: bool) -> Embedder | None:
    """The local embedding model for confirming, or None with --no-embed."""
    if no_embed:
        return None
    from pipeline.providers.local import MiniLMEmbedder  # loads the model: only to confirm

    return MiniLMEmbedder()


def interactive_review(store: Store, person_id: int, conversation_id: int, no_embed: bool) -> None:
    """Show the preview and prompt for a step, until confirmed, resumed or left."""
    from rich.prompt import Prompt

    from pipeline.conversations import (
        confirm_conversation,
        edit_memory,
        get_memory_preview,
        redirect_memory,
        resume_conversation,
        split_memory,
    )

    while True:
        preview = get_memory_preview(store, person_id, conversation_id)
        show_preview(console, preview)
        choice = Prompt.ask(
            "[c]onfirm, [e]dit, [r]edirect, [s]plit, res[u]me, [q]uit (decide later)",
            choices=["c", "e", "r", "s", "u", "q"],
            console=console,
        )
        try:
            if choice == "q":
                console.print("Left for later: the conversation waits for review.")
                return
            if choice == "u":
                resume_conversation(store, person_id, conversation_id)
                console.print("Active again; the draft memory was dropped.")
                return
            if choice == "c":
                confirm_conversation(
                    store, person_id, conversation_id, embedder=embedder_for(no_embed)
                )
                console.print(f"Kept; conversation {conversation_id} is archived.")
                return
            memory_id = _pick(preview)
            if choice == "e":
                text = Prompt.ask("The narrative to keep", console=console)
                edit_memory(store, person_id, memory_id, text)
            elif choice == "r":
                where = Prompt.ask(
                    "Destination", choices=list(preview.destinations), console=console
                )
                redirect_memory(store, person_id, memory_id, where)
            else:
                split_memory(store, person_id, memory_id, _ask_parts(preview))
        except ConverseError as exc:
            console.print(f"[bold red]error:[/] {shown(exc.one_line())}", highlight=False)


def _pick(preview: Preview) -> int:
    from rich.prompt import IntPrompt

    drafts = [m.id for m in preview.memories if m.status.value == "draft"]
    if len(drafts) == 1:
        return drafts[0]
    return IntPrompt.ask("Which memory", choices=[str(d) for d in drafts], console=console)


def _ask_parts(preview: Preview) -> list[SplitPart]:
    from rich.prompt import Prompt

    from pipeline.conversations import SplitPart

    parts: list[SplitPart] = []
    while True:
        number = len(parts) + 1
        where = Prompt.ask(
            f"Destination of memory {number} (empty: done)",
            default="",
            show_default=False,
            console=console,
        )
        if not where:
            return parts
        narrative = Prompt.ask(f"What memory {number} says", console=console)
        ids = Prompt.ask(
            f"Entity ids that go with memory {number} (comma-separated, empty: none)",
            default="",
            show_default=False,
            console=console,
        )
        try:
            entity_ids = tuple(int(i) for i in ids.split(",") if i.strip())
        except ValueError:
            console.print("[bold red]error:[/] entity ids are numbers; this part was skipped")
            continue
        parts.append(SplitPart(destination=where, narrative=narrative, entity_ids=entity_ids))
