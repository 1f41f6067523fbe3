"""`converse chat`: an interactive conversation that shows what changed in memory."""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from pipeline.cli.common import (
    DbOption,
    PersonOption,
    checked_name,
    console,
    err_console,
    handles_errors,
    is_interactive,
    providers_for,
    shown,
    store_for,
)
from pipeline.cli.exits import EXIT_PROVIDER
from pipeline.errors import InvalidMessage
from pipeline.providers.command_options import PROVIDER_NAMES
from pipeline.text import check_text

if TYPE_CHECKING:
    from pipeline.converse import TurnOutcome
    from pipeline.turn_queue import Answered

QUIT = {"/quit", "/exit", ":q"}


@handles_errors
def chat(
    person: str = PersonOption,
    project: str | None = typer.Option(
        None, "--project", help="Talk inside this project.", callback=checked_name
    ),
    provider: str | None = typer.Option(
        None, "--provider", help=f"One of {', '.join(PROVIDER_NAMES)}.", envvar="CONVERSE_PROVIDER"
    ),
    script: Path | None = typer.Option(None, "--script", help="Fixture for --provider scripted."),
    channel: str = typer.Option("cli", "--channel", help="Recorded on each turn."),
    message: str | None = typer.Option(
        None, "--message", "-m", help="Say this one message and exit (no prompt)."
    ),
    db_url: str | None = DbOption,
) -> None:
    """Talk to the companion; after each reply, see what changed in memory."""
    # The pipeline and the store: only when a conversation starts, not for --help.
    from pipeline.cli.render import show_turn
    from pipeline.converse import check_message
    from pipeline.store.people import get_person, get_project
    from pipeline.turn_queue import TurnQueue

    store = store_for(db_url)
    with store.read() as session:  # fail on unknown names before loading any model
        found = get_person(session, person)
        if project:
            get_project(session, found, project)
    if message is not None:
        check_message(message)  # refuse bad input before loading any model
    providers = providers_for(provider, script)

    def shown_turn(done: Answered) -> None:
        show_turn(console, done.outcome, providers.label)
        # The ids `converse explain` and MCP's explain_classification take.
        mine, reply = done.outcome.operator_turn.id, done.outcome.companion_turn.id
        console.print(
            f"  [dim]turn #{mine} (reply #{reply}): `converse explain {mine} --person "
            f"{escape(shlex.quote(person))}` shows what its classifier was shown[/]",
            highlight=False,
        )

    # One message at a time from a terminal: nothing to coalesce, so no window to wait out.
    queue = TurnQueue(store, window_s=0, on_answered=shown_turn, providers=providers)
    left = queue.waiting(person)
    if left:
        console.print(
            f"Answering {left} message(s) received before the last stop first.", highlight=False
        )

    def say(text: str) -> None:
        queue.submit(person, text, project=project, channel=channel).result()

    if message is not None:
        # Submitted before the resume: a resend of a message the last stop left unanswered
        # is that message, answered once.
        future = queue.submit(person, message, project=project, channel=channel)
        queue.resume(person)
        outcome = future.result()
        queue.join()
        unreached = unreached_model(outcome)
        if unreached:
            # A script reading the exit status must not take the offline reply for the model's.
            err_console.print(f"warning: {shown(unreached)}", highlight=False, soft_wrap=True)
            raise typer.Exit(EXIT_PROVIDER)
        return
    queue.resume(person)
    queue.join()
    where = f"project {project!r}" if project else "no project"
    console.print(
        f"Talking to the companion as {shown(person)} ({shown(where)}). /quit to leave.",
        highlight=False,
    )
    if isinstance(sys.stdin, io.TextIOWrapper):
        # Bad bytes then arrive as lone surrogates that check_text refuses line by line,
        # instead of a UnicodeDecodeError that would end the conversation.
        sys.stdin.reconfigure(errors="surrogateescape")
    while True:
        try:
            line = read_line()
            if line is None or line.strip() in QUIT:
                break
            say(check_text(line))
        except InvalidMessage as exc:
            err_console.print(f"[red]{shown(exc.one_line())}[/]", highlight=False)


def unreached_model(outcome: TurnOutcome) -> str | None:
    """Why the reply is not the model's (its responder failed or could not be reached), or
    None when the model answered."""
    if outcome.reply.provider != "fallback":
        return None
    error = outcome.companion_turn.meta.get("responder", {}).get("error") or "no answer"
    return (
        f"the model did not answer: {error}. Check that the provider's server is up and its "
        "settings (e.g. --openai-base-url), then say it again"
    )


def read_line() -> str | None:
    """The next line the person typed, None at the end of input.

    From a pipe, a line is read at most MAX_MESSAGE_CHARS + 1 characters at a time, so one
    endless line cannot fill memory; the rest of an over-long line is read and dropped.
    A terminal already bounds its lines, and input() keeps line editing there.
    """
    from pipeline.config import MAX_MESSAGE_CHARS  # the settings classes: only when it runs

    if is_interactive():
        try:
            return input("you: ")
        except EOFError:
            return None
    sys.stdout.write("you: ")
    sys.stdout.flush()
    line = sys.stdin.readline(MAX_MESSAGE_CHARS + 1)
    if not line:
        return None
    if len(line) > MAX_MESSAGE_CHARS and not line.endswith("\n"):
        rest = line
        while rest and not rest.endswith("\n"):
            rest = sys.stdin.readline(65_536)
        raise InvalidMessage(
            f"the message is longer than {MAX_MESSAGE_CHARS:,} characters",
            "split it into shorter messages",
        )
    return line.removesuffix("\n")
