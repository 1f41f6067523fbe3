"""`converse conversation ...`: the lifecycle from the command line (docs/conversations.md).

Every command acts on the person's open conversation unless `--id` names another. `review`
is interactive in a terminal; its flags (--confirm, --edit, --redirect, --split, --resume)
do the same without prompts, for scripts and tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from pipeline.cli.common import (
    DbOption,
    PersonOption,
    console,
    fail,
    handles_errors,
    is_interactive,
    providers_for,
    shown,
    store_for,
)
from pipeline.cli.conversation_prompts import embedder_for, interactive_review
from pipeline.cli.conversation_view import (
    preview_json,
    show_preview,
    show_transcript,
    status_line,
)
from pipeline.cli.params import id_option
from pipeline.errors import ConverseError, NotFound
from pipeline.files import output_path, write_output

if TYPE_CHECKING:
    from pipeline.conversations import SplitPart
    from pipeline.store import Store

conversation_app = typer.Typer(
    help="List, close, review and resume a person's conversations.", no_args_is_help=True
)

IdOption = id_option(
    "conversation ",
    "see the ids with `converse conversation list --person NAME`",
    "A conversation id (default: the open one).",
    "--id",
)
JsonOption = typer.Option(False, "--json", help="Print JSON instead of a table.")


def _person_id(db_url: str | None, person: str) -> tuple[Store, int]:
    from pipeline.store.people import get_person

    store = store_for(db_url)
    with store.read() as session:
        return store, get_person(session, person).id


def _target(store: Store, person_id: int, conversation_id: int | None) -> int:
    from pipeline.conversations import get_active_conversation

    if conversation_id is not None:
        return conversation_id
    found = get_active_conversation(store, person_id)
    if found is None:
        raise NotFound(
            "this person has no open conversation",
            "a message starts one; archived ones are listed by "
            "`converse conversation list --person NAME`",
        )
    return found.id


@conversation_app.command("list")
@handles_errors
def conversation_list(
    person: str = PersonOption, as_json: bool = JsonOption, db_url: str | None = DbOption
) -> None:
    """The person's conversations, newest first."""
    from pipeline.conversations import list_conversations

    store, person_id = _person_id(db_url, person)
    found = list_conversations(store, person_id)
    if as_json:
        print("[" + ",".join(c.model_dump_json() for c in found) + "]")
        return
    if not found:
        console.print("No conversations yet: a message starts one.", highlight=False)
    for conversation in found:
        console.print(status_line(conversation), highlight=False)


@conversation_app.command("show")
@handles_errors
def conversation_show(
    person: str = PersonOption,
    conversation_id: int | None = IdOption,
    as_json: bool = JsonOption,
    db_url: str | None = DbOption,
) -> None:
    """A conversation's transcript and its memories."""
    from pipeline.conversations import get_conversation_archive, get_memory_preview

    store, person_id = _person_id(db_url, person)
    target = _target(store, person_id, conversation_id)
    preview = get_memory_preview(store, person_id, target)
    turns = get_conversation_archive(store, person_id, target)
    if as_json:
        print(preview_json(preview, turns))
        return
    console.print(status_line(preview.conversation), highlight=False)
    show_transcript(console, turns, person)
    for memory in preview.memories:
        console.print(
            f"Memory {memory.id} ({memory.status.value}, {shown(memory.destination.name)}): "
            f"{shown(memory.narrative)}",
            highlight=False,
        )


@conversation_app.command("close")
@handles_errors
def conversation_close(
    person: str = PersonOption,
    conversation_id: int | None = IdOption,
    provider: str | None = typer.Option(
        None,
        "--provider",
        help="Whose model extracts (default as for chat).",
        envvar="CONVERSE_PROVIDER",
    ),
    script: Path | None = typer.Option(None, "--script", help="Fixture for --provider scripted."),
    as_json: bool = JsonOption,
    db_url: str | None = DbOption,
) -> None:
    """Close the conversation and extract its memory for review (nothing is kept until
    `review --confirm`)."""
    from pipeline.conversations import close_conversation
    from pipeline.prompting import default_library

    store, person_id = _person_id(db_url, person)
    target = _target(store, person_id, conversation_id)
    providers = providers_for(provider, script)
    preview = close_conversation(
        store,
        person_id,
        target,
        library=default_library(),
        generator=providers.structured,
        lexicon=providers.lexicon,
    )
    if as_json:
        print(preview.model_dump_json())
        return
    show_preview(console, preview)
    console.print(
        f"Review it with `converse conversation review --person {person!r}` "
        "(confirm, edit, redirect, split, resume).",
        highlight=False,
    )


@conversation_app.command("resume")
@handles_errors
def conversation_resume(
    person: str = PersonOption,
    conversation_id: int | None = IdOption,
    db_url: str | None = DbOption,
) -> None:
    """Go back to the conversation: cancel its closing (the draft is dropped), or unpause it."""
    from pipeline.conversation_models import ConversationStatus
    from pipeline.conversations import get_conversation, resume_conversation, set_paused

    store, person_id = _person_id(db_url, person)
    target = _target(store, person_id, conversation_id)
    found = get_conversation(store, person_id, target)
    if found.status is ConversationStatus.ACTIVE and found.is_paused:
        set_paused(store, person_id, target, False)
        console.print(f"Conversation {target} is no longer paused.", highlight=False)
        return
    resume_conversation(store, person_id, target)
    console.print(f"Conversation {target} is active again; its draft memory was dropped.")


@conversation_app.command("pause")
@handles_errors
def conversation_pause(
    person: str = PersonOption,
    conversation_id: int | None = IdOption,
    db_url: str | None = DbOption,
) -> None:
    """Set the conversation aside: the companion will not remark on its silence."""
    from pipeline.conversations import set_paused

    store, person_id = _person_id(db_url, person)
    target = _target(store, person_id, conversation_id)
    set_paused(store, person_id, target, True)
    console.print(f"Conversation {target} is paused; `resume` unpauses it.", highlight=False)


@conversation_app.command("review")
@handles_errors
def conversation_review(
    person: str = PersonOption,
    conversation_id: int | None = IdOption,
    memory_id: int | None = id_option(
        "memory ",
        "the preview shows each draft's id",
        "Which draft to edit or redirect (default: the only one).",
        "--memory",
    ),
    edit: str | None = typer.Option(None, "--edit", help="Replace the narrative (kept beside it)."),
    redirect: str | None = typer.Option(
        None, "--redirect", help='Send the draft to "Your Story" or a project.'
    ),
    split: list[str] = typer.Option(
        [],
        "--split",
        help='One memory per use: "DESTINATION|NARRATIVE|ENTITY,IDS" (ids optional).',
    ),
    confirm: bool = typer.Option(False, "--confirm", help="Keep the memories and archive."),
    resume: bool = typer.Option(False, "--resume", help="Cancel closing; back to the talk."),
    no_embed: bool = typer.Option(
        False, "--no-embed", help="Confirm without embedding (no model is loaded)."
    ),
    interactive: bool | None = typer.Option(
        None,
        "--interactive/--no-interactive",
        help="Prompt for each step (default: in a terminal, when no action is given).",
    ),
    as_json: bool = JsonOption,
    db_url: str | None = DbOption,
) -> None:
    """Preview what the conversation will be remembered as, then confirm, edit, redirect,
    split or resume."""
    from pipeline.conversations import (
        confirm_conversation,
        edit_memory,
        get_memory_preview,
        redirect_memory,
        resume_conversation,
        split_memory,
    )

    store, person_id = _person_id(db_url, person)
    target = _target(store, person_id, conversation_id)
    acted = bool(edit or redirect or split or confirm or resume)
    if resume and (edit or redirect or split or confirm):
        raise fail("--resume cancels the review; give it alone")
    if interactive or (interactive is None and not acted and not as_json and is_interactive()):
        interactive_review(store, person_id, target, no_embed)
        return
    if resume:
        resume_conversation(store, person_id, target)
        console.print(f"Conversation {target} is active again; its draft memory was dropped.")
        return
    if edit is not None:
        edit_memory(store, person_id, _draft_id(store, person_id, target, memory_id), edit)
    if redirect is not None:
        redirect_memory(store, person_id, _draft_id(store, person_id, target, memory_id), redirect)
    if split:
        split_memory(
            store, person_id, _draft_id(store, person_id, target, memory_id), _parts(split)
        )
    if confirm:
        confirm_conversation(store, person_id, target, embedder=embedder_for(no_embed))
    preview = get_memory_preview(store, person_id, target)
    if as_json:
        print(preview.model_dump_json())
        return
    show_preview(console, preview)
    if confirm:
        console.print(f"Kept; conversation {target} is archived.", highlight=False)


def _draft_id(store: Store, person_id: int, conversation_id: int, memory_id: int | None) -> int:
    from pipeline.conversation_models import MemoryStatus
    from pipeline.conversations import get_memory_preview

    if memory_id is not None:
        return memory_id
    drafts = [
        m
        for m in get_memory_preview(store, person_id, conversation_id).memories
        if m.status is MemoryStatus.DRAFT
    ]
    if len(drafts) != 1:
        raise ConverseError(
            f"conversation {conversation_id} has {len(drafts)} draft memories",
            "name one with --memory ID" if drafts else "close it first to extract one",
        )
    return drafts[0].id


def _parts(specs: list[str]) -> list[SplitPart]:
    from pipeline.conversations import SplitPart

    parts: list[SplitPart] = []
    for spec in specs:
        pieces = spec.split("|")
        if len(pieces) not in (2, 3) or not pieces[0].strip() or not pieces[1].strip():
            raise ConverseError(
                f"--split {spec!r} is not DESTINATION|NARRATIVE or DESTINATION|NARRATIVE|IDS",
                'write e.g. --split "Garden|Ana chose larch beds.|3,4"',
            )
        try:
            ids = (
                tuple(int(i) for i in pieces[2].split(",") if i.strip()) if len(pieces) == 3 else ()
            )
        except ValueError:
            raise ConverseError(
                f"--split {spec!r}: entity ids must be numbers", "use the ids the preview shows"
            ) from None
        parts.append(SplitPart(destination=pieces[0].strip(), narrative=pieces[1], entity_ids=ids))
    return parts


@conversation_app.command("greeting")
@handles_errors
def conversation_greeting(
    person: str = PersonOption, as_json: bool = JsonOption, db_url: str | None = DbOption
) -> None:
    """What to open with: the open conversation, or open questions, waiting-ons, the last
    week's decisions and stale tasks."""
    from pipeline.clock import utcnow
    from pipeline.conversations import startup_greeting

    store, person_id = _person_id(db_url, person)
    greeting = startup_greeting(store, person_id, utcnow())
    if as_json:
        print(greeting.model_dump_json())
        return
    if greeting.open_conversation is not None:
        console.print(
            "Open conversation: " + status_line(greeting.open_conversation), highlight=False
        )
    sections = (
        ("Open questions", greeting.open_questions),
        ("Waiting on", greeting.waiting_on),
        ("Decided in the last 7 days", greeting.recent_decisions),
        ("Stale tasks", greeting.stale_tasks),
    )
    for title, items in sections:
        console.print(f"{title}:" + ("" if items else " none"), highlight=False)
        for item in items:
            console.print(f"  • {shown(item.text)} ({item.created_at:%Y-%m-%d})", highlight=False)


@conversation_app.command("export")
@handles_errors
def conversation_export(
    person: str = PersonOption,
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write to this file (atomically) instead of stdout."
    ),
    db_url: str | None = DbOption,
) -> None:
    """The person's kept memories as Markdown."""
    import sys

    from pipeline.conversations import memories_markdown

    if output is not None:
        output_path(output, "export")  # refused before the database is read
    store, person_id = _person_id(db_url, person)
    text = memories_markdown(store, person_id)
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_output(output, text, "export")
    console.print(f"Exported to {shown(output)}.", highlight=False)
