"""How a turn is shown in the terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console

from pipeline.cli.common import shown

if TYPE_CHECKING:
    from pipeline.converse import TurnOutcome


def show_turn(console: Console, outcome: TurnOutcome, provider_label: str) -> None:
    """The reply, what changed in memory, and any degradation."""
    console.print(
        f"[bold cyan]companion[/] [dim]({shown(provider_label)})[/]: {shown(outcome.reply.text)}",
        highlight=False,
    )
    classified = outcome.classified
    detail = f"intent {classified.intent}"
    if classified.params:
        detail += " " + ", ".join(f"{k}={v!r}" for k, v in classified.params.items())
    console.print(f"  [dim]{shown(detail)}[/]", highlight=False)
    if classified.error:
        console.print(
            f"  [yellow]classifier failed ({shown(classified.error)}); treated as conversation, "
            "nothing stored was changed[/]",
            highlight=False,
        )
    responder_error = outcome.companion_turn.meta.get("responder", {}).get("error")
    if responder_error:
        console.print(
            f"  [yellow]responder failed ({shown(responder_error)}); offline reply shown[/]",
            highlight=False,
        )
    project_id = outcome.companion_turn.engagement_id
    for change in outcome.route.changes:
        # Project notes and personal facts number separately: `notes#3` is not `#3`.
        tag = "notes#" if change.engagement_id == project_id else "#"
        if change.before is None:
            what = f"new, {change.after.value}"
        elif change.before is change.after:
            what = f"amended, still {change.after.value}"
        else:
            what = f"{change.before.value} → {change.after.value}"
        console.print(
            f"  [green]memory:[/] {tag}{change.display_number} "
            f"{shown(repr(change.content))}: {what}",
            highlight=False,
        )
    if not outcome.route.changes:
        console.print("  [dim]memory: unchanged[/]")
