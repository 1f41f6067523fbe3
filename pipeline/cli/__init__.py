"""The pipeline's own commands: chat, memory, notes, status, consent, person, project,
conversation, db, worker, stats, demo, prompts, explain, mcp."""

from __future__ import annotations

import typer

from pipeline.cli.claude import claude_options
from pipeline.cli.lazy import LazyCommand, lazy_group

# Each command's module is imported only when that command runs (see pipeline/cli/lazy.py).
COMMANDS: dict[str, LazyCommand] = {
    "chat": LazyCommand(
        "pipeline.cli.chat:chat",
        "Talk to the companion; after each reply, see what changed in memory.",
    ),
    "demo": LazyCommand(
        "pipeline.cli.demo:demo",
        "Walk a scripted conversation offline and print personal memory after each turn.",
    ),
    "search": LazyCommand(
        "pipeline.cli.search:search",
        "Find held and committed memories by meaning; score = 0.7 similarity + 0.3 recency.",
    ),
    "memory": LazyCommand("pipeline.cli.memory:memory_app", "Inspect and manage personal memory."),
    "notes": LazyCommand("pipeline.cli.notes:notes_app", "Inspect and manage a project's notes."),
    "person": LazyCommand("pipeline.cli.people:person_app", "Create and list people."),
    "project": LazyCommand(
        "pipeline.cli.people:project_app", "Create and list a person's projects."
    ),
    "consent": LazyCommand(
        "pipeline.cli.consent:consent_app",
        "Sensitive profile changes (name, pronouns, city, language) waiting for consent.",
    ),
    "status": LazyCommand(
        "pipeline.cli.status:status_app",
        "List or clear a person's status notes (shown to the companion every turn).",
    ),
    "session": LazyCommand(
        "pipeline.cli.session:session_app", "Show or reset a person's session and working memory."
    ),
    "conversation": LazyCommand(
        "pipeline.cli.conversation:conversation_app",
        "List, close, review and resume a person's conversations.",
    ),
    "heartbeat": LazyCommand(
        "pipeline.cli.heartbeat:heartbeat_app", "Let the companion reach out, within its rules."
    ),
    "explain": LazyCommand(
        "pipeline.cli.explain:explain",
        "Show how a message was classified and which memories the classifier was shown.",
    ),
    "mcp": LazyCommand(
        "pipeline.cli.mcp:mcp",
        "Serve one person's conversations and memories to an MCP client (stdio or HTTP).",
    ),
    "db": LazyCommand("pipeline.cli.db:db_app", "Database migrations."),
    "worker": LazyCommand(
        "pipeline.cli.worker:worker_app",
        "Run background jobs (lifecycle sweep, consent expiry, consolidation, insights).",
    ),
    "stats": LazyCommand(
        "pipeline.cli.stats:stats",
        "Count what the pipeline did to memory, by op and node, per day or hour.",
    ),
    "prompts": LazyCommand(
        "pipeline.cli.prompts:prompts_app", "List, show and diff the prompt templates."
    ),
}


def build_app(extra: dict[str, LazyCommand] | None = None) -> typer.Typer:
    """The Typer app with every pipeline command group, and `extra` commands after them."""
    return typer.Typer(
        help="converse-harness: a memory-keeping companion and the harness around it.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        callback=claude_options,
        cls=lazy_group({**COMMANDS, **(extra or {})}),
    )


__all__ = ["COMMANDS", "LazyCommand", "build_app"]
