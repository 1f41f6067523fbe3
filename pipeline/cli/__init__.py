"""The pipeline's own commands: chat, memory, notes, person, project, db, demo, prompts."""

from __future__ import annotations

import typer

from pipeline.cli.chat import chat
from pipeline.cli.claude import claude_options
from pipeline.cli.db import db_app
from pipeline.cli.demo import demo
from pipeline.cli.memory import memory_app
from pipeline.cli.notes import notes_app
from pipeline.cli.people import person_app, project_app
from pipeline.cli.prompts import prompts_app
from pipeline.cli.search import search


def build_app() -> typer.Typer:
    """The Typer app with every pipeline command group."""
    app = typer.Typer(
        help="converse-harness: a memory-keeping companion and the harness around it.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        callback=claude_options,
    )
    app.command("chat")(chat)
    app.command("demo")(demo)
    app.command("search")(search)
    app.add_typer(memory_app, name="memory")
    app.add_typer(notes_app, name="notes")
    app.add_typer(person_app, name="person")
    app.add_typer(project_app, name="project")
    app.add_typer(db_app, name="db")
    app.add_typer(prompts_app, name="prompts")
    return app


__all__ = ["build_app"]
