"""The commands `converse memory` and `converse notes` share, written once over a shelf.

Personal memory and a project's notes are both shelves of numbered assertions
(pipeline/memory/manage.py's `Shelf`). forget, restore, pin, unpin, importance, history and
erase work the same on either; a `ShelfKind` says only what differs: the tag numbers carry
(`#3`, `notes#3`), the options that name the shelf (`--person`, and `--project` for notes),
and how an erasure is applied. `add_shelf_commands` registers the seven on a Typer app.
"""

from __future__ import annotations

import inspect
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

from pipeline.cli.common import (
    DbOption,
    console,
    fail,
    handles_errors,
    is_interactive,
    shown,
    store_for,
)
from pipeline.cli.exits import EXIT_CHECK
from pipeline.cli.history_table import history_table
from pipeline.text import check_text, printable

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from pipeline.domain import Assertion
    from pipeline.memory import manage

# Finds the shelf a command works on, in its session, from the options that name it.
FindShelf = Callable[..., "manage.Shelf"]
# Erases the numbered assertions (and turns mentioning the texts, where the kind allows it).
EraseNumbers = Callable[..., "manage.Erasure"]
# Counts the turns `--mentions` would erase beyond those the facts' own erasure blanks.
CountMentions = Callable[..., int]
Change = Callable[["Session", "manage.Shelf", int], "Assertion"]

ImportanceArgument = typer.Argument(
    ..., help="From 0 to 1; below the sweep's threshold an unused one may be set aside."
)
MentionsOption = typer.Option(
    [],
    "--mentions",
    help="Also erase every turn of the person that mentions this text (repeat for more): "
    "words said again in plain chat, which no fact links to.",
)
YesOption = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation.")


@dataclass(frozen=True)
class ShelfKind:
    """What differs between personal memory and a project's notes for the shared commands."""

    tag: str  # "#" or "notes#"
    noun: str  # "assertions" or "notes", in the erase command's help
    where: tuple[inspect.Parameter, ...]  # the options naming the shelf, e.g. --person
    find: FindShelf  # find(session, **where)
    erase: EraseNumbers  # erase(store, numbers, mentions, **where)
    number: Any  # the typer Argument of one number
    numbers: Any  # the typer Argument of several
    count_mentions: CountMentions | None = None  # set when erase takes --mentions
    optional_numbers: Any = None  # erase's numbers when it takes --mentions (may be none)


def change_each(
    find: Callable[[Session], manage.Shelf],
    numbers: list[int],
    change: Change,
    word: str,
    tag: str,
    db_url: str | None,
) -> None:
    """Apply `change` to each numbered assertion of the shelf, in one transaction: every one
    is changed, or (when one cannot be) none is. The one rule of forget, restore, pin and
    unpin, for facts and notes alike; a number given twice counts once."""
    with store_for(db_url).write() as session:
        shelf = find(session)
        done = [change(session, shelf, n) for n in dict.fromkeys(numbers)]
    for one in done:
        if word == "Restored":
            console.print(restored_line(one, tag), highlight=False)
        else:
            console.print(
                f"{word} {tag}{one.display_number}: {shown(one.content)}", highlight=False
            )


def restored_line(done: Assertion, tag: str) -> str:
    """What a restore says: the number, the text, and its force when still retracted."""
    still = " (still retracted: restore it again to commit it)"
    tail = still if done.force.value == "retracted" else ""
    return f"Restored {tag}{done.display_number}: {shown(done.content)}{tail}"


def confirm_erase(targets: list[Assertion], tag: str) -> None:
    """Ask before a permanent erase; refuse without a terminal, exit 1 on no."""
    if not is_interactive():
        raise fail("erase needs confirmation — run it in a terminal or pass --yes")
    # The prompt is click's, not Rich's: no markup to escape, but control characters still.
    listing = "; ".join(f"{tag}{a.display_number} {printable(a.content)}" for a in targets)
    listing = listing or "the turns above"
    if not typer.confirm(f"Permanently erase {listing}? This cannot be undone"):
        console.print("Nothing erased.")
        raise typer.Exit(EXIT_CHECK)


def report_erasure(done: manage.Erasure, person: str = "") -> None:
    """How many were erased, what turns still hold words of the erased facts (and the command
    that erases them), and whether old copies may linger in the SQLite WAL."""
    if done.erased or not done.mentions:
        console.print(f"Erased {len(done.erased)} assertion(s) permanently.")
    if done.mentions:
        console.print(f"Erased {done.mentions} turn(s) that mentioned the text as well.")
    for word, turn_ids in done.left:
        listed = ", ".join(f"#{t}" for t in turn_ids)
        console.print(
            f"Left: {len(turn_ids)} turn(s) not linked to it still mention {shown(repr(word))} "
            f"({listed}); erase them too with `converse memory erase --mentions "
            f"{shlex.quote(word)} --person {shlex.quote(person)} --yes`.",
            highlight=False,
            soft_wrap=True,
        )
    if not done.checkpointed:
        console.print(
            "Another connection was reading, so old copies may stay in the -wal file until "
            "the next checkpoint; run the erase again when it is idle."
        )


class _Commands:
    """The seven commands' bodies for one kind; each takes the naming options as keywords."""

    def __init__(self, kind: ShelfKind) -> None:
        self.kind = kind

    def _finder(self, where: Mapping[str, Any]) -> Callable[[Session], manage.Shelf]:
        return lambda session: self.kind.find(session, **where)

    def forget(self, numbers: list[int], db_url: str | None, **where: Any) -> None:
        from pipeline.memory import manage

        tag = self.kind.tag
        change_each(self._finder(where), numbers, manage.retract_on, "Retracted", tag, db_url)

    def restore(self, numbers: list[int], db_url: str | None, **where: Any) -> None:
        from pipeline.memory import manage

        tag = self.kind.tag
        change_each(self._finder(where), numbers, manage.restore_on, "Restored", tag, db_url)

    def _pin(self, numbers: list[int], pinned: bool, db_url: str | None, where: Any) -> None:
        from pipeline.memory import manage

        def pin(session: Session, shelf: manage.Shelf, number: int) -> Assertion:
            return manage.pin_on(session, shelf, number, pinned)

        word = "Pinned" if pinned else "Unpinned"
        change_each(self._finder(where), numbers, pin, word, self.kind.tag, db_url)

    def pin(self, numbers: list[int], db_url: str | None, **where: Any) -> None:
        self._pin(numbers, True, db_url, where)

    def unpin(self, numbers: list[int], db_url: str | None, **where: Any) -> None:
        self._pin(numbers, False, db_url, where)

    def importance(self, number: int, value: float, db_url: str | None, **where: Any) -> None:
        from pipeline.memory import manage

        with store_for(db_url).write() as session:
            done = manage.importance_on(session, self.kind.find(session, **where), number, value)
        console.print(
            f"{self.kind.tag}{done.display_number} now has importance {done.importance:g}: "
            f"{shown(done.content)}",
            highlight=False,
        )

    def history(self, number: int, db_url: str | None, **where: Any) -> None:
        from pipeline.memory import manage

        tag = self.kind.tag
        with store_for(db_url).read() as session:
            shelf = self.kind.find(session, **where)
            entries = manage.history_on(session, shelf, number)
        if not entries:
            console.print(
                f"{tag}{number} has no history: it was stored before history was kept.",
                highlight=False,
            )
            return
        console.print(history_table(entries, f"History of {tag}{number} in {shown(shelf.where)}"))

    def erase(
        self,
        numbers: list[int],
        yes: bool,
        db_url: str | None,
        mentions: Sequence[str] = (),
        **where: Any,
    ) -> None:
        from pipeline.memory import manage

        numbers = list(numbers or [])
        if not numbers and not mentions:
            raise fail(
                f"name the {self.kind.noun} to erase, e.g. 3 5, or the words with --mentions"
            )
        for text in mentions:
            check_text(text, "the --mentions text")
            if not text.strip():
                raise fail(
                    "--mentions needs some text — name the word to erase, e.g. --mentions rambutan"
                )
        store = store_for(db_url)
        with store.read() as session:
            shelf = self.kind.find(session, **where)
            # validate first; one the lifecycle sweep set aside can be erased too
            targets = [manage.on_shelf(session, shelf, n, include_deleted=True) for n in numbers]
            count = self.kind.count_mentions
            mentioned = count(session, targets, mentions, **where) if count and mentions else 0
        if mentions:
            words = ", ".join(repr(m) for m in mentions)
            console.print(
                f"{mentioned} more turn(s) mention {shown(words)} and will be erased too.",
                highlight=False,
            )
        if not yes:
            confirm_erase(targets, self.kind.tag)
        report_erasure(
            self.kind.erase(store, numbers, list(mentions), **where), where.get("person", "")
        )


def _param(name: str, default: Any, annotation: Any) -> inspect.Parameter:
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def _register(
    app: typer.Typer,
    name: str,
    body: Callable[..., None],
    params: list[inspect.Parameter],
    doc: str,
) -> None:
    """Register `body` as the command `name` with these parameters (Typer reads the signature)."""

    def command(**kwargs: Any) -> None:
        body(**kwargs)

    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params}
    command.__annotations__["return"] = None
    command.__doc__ = doc
    command.__name__ = command.__qualname__ = name
    app.command(name)(handles_errors(command))


def add_shelf_commands(app: typer.Typer, kind: ShelfKind, *names: str) -> None:
    """Register the named shared commands (forget, restore, pin, unpin, importance, history,
    erase) for `kind` on `app`, in the order given; each command's own options come first,
    then the shelf's, then --db-url."""
    body = _Commands(kind)
    tag = kind.tag
    db = _param("db_url", DbOption, str | None)
    numbers = _param("numbers", kind.numbers, list[int])
    # With --mentions, erase may name no number: the turns that still mention a word of a
    # fact erased before (the erase says which, and this command).
    erased = _param("numbers", kind.optional_numbers, list[int]) if kind.count_mentions else numbers
    number = _param("number", kind.number, int)
    erase_options = [_param("yes", YesOption, bool)]
    if kind.count_mentions is not None:
        erase_options.insert(0, _param("mentions", MentionsOption, list[str]))
    value = _param("value", ImportanceArgument, float)
    commands: dict[str, tuple[Callable[..., None], list[inspect.Parameter], str]] = {
        "forget": (
            body.forget,
            [numbers],
            f"Retract {tag}NUMBER, or several (reversible with `restore`).",
        ),
        "restore": (
            body.restore,
            [numbers],
            f"Restore retracted {tag}NUMBERs as committed, or ones the lifecycle sweep set aside.",
        ),
        "pin": (
            body.pin,
            [numbers],
            f"Pin {tag}NUMBERs: the lifecycle sweep never sets them aside.",
        ),
        "unpin": (
            body.unpin,
            [numbers],
            f"Unpin {tag}NUMBERs: the lifecycle sweep may set them aside again when unused.",
        ),
        "importance": (
            body.importance,
            [number, value],
            f"Set how much {tag}NUMBER matters (0..1; the default is 0.5).",
        ),
        "history": (
            body.history,
            [number],
            f"Every change to {tag}NUMBER, oldest first: what, who, before and after, when.",
        ),
        "erase": (
            body.erase,
            [erased],
            f"Delete {kind.noun} PERMANENTLY, with every turn that stated them "
            "(asks first unless --yes).",
        ),
    }
    for name in names or SHARED:
        run, own, doc = commands[name]
        after = erase_options if name == "erase" else []
        _register(app, name, run, [*own, *kind.where, *after, db], doc)


# The shared commands, in the order `add_shelf_commands` registers them by default.
SHARED = ("forget", "restore", "pin", "unpin", "importance", "history", "erase")


def where_option(name: str, option: Any) -> inspect.Parameter:
    """One option that names the shelf (`person`, `project`), as a required string."""
    return _param(name, option, str)
