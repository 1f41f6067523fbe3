"""`converse demo`: a scripted conversation through remember, refine, confirm and forget."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import typer

from pipeline.cli.common import console, default_script, handles_errors, shown
from pipeline.cli.memory import assertion_table
from pipeline.errors import ConverseError

# The pipeline, its store and PyYAML are imported when the demo runs, not for its --help.


def _plan(path: Path) -> dict[str, Any]:
    """The fixture's `conversation` section, or a ConverseError saying what is wrong."""
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConverseError(
            f"cannot read {path}: {exc.strerror}", "pass an existing conversation fixture"
        ) from None
    except UnicodeDecodeError:
        raise ConverseError(f"{path} is not UTF-8 text", "save it as UTF-8") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConverseError(f"{path} is not valid YAML{where}", "fix the file") from None
    plan = data.get("conversation") if isinstance(data, dict) else None
    if not plan:
        raise ConverseError(
            f"{path} has no `conversation` section", "add one (see fixtures/scripted/demo.yaml)"
        )
    steps = plan.get("messages") if isinstance(plan, dict) else None
    if not (
        isinstance(plan, dict)
        and isinstance(plan.get("person"), str)
        and isinstance(plan.get("project"), str)
        and isinstance(plan.get("seed", ""), str)
        and isinstance(steps, list)
        and all(isinstance(s, dict) and isinstance(s.get("message"), str) for s in steps)
    ):
        raise ConverseError(
            f"{path}: `conversation` needs a person, a project and messages (each a message:)",
            "see fixtures/scripted/demo.yaml",
        )
    return plan


@handles_errors
def demo(
    script: Path | None = typer.Option(None, "--script", help="Conversation fixture to walk."),
    db_url: str | None = typer.Option(
        None, "--db-url", help="Database to use (default: a fresh temporary SQLite file)."
    ),
) -> None:
    """Walk a scripted conversation offline and print personal memory after each turn."""
    from pipeline.cli.render import show_turn
    from pipeline.converse import converse
    from pipeline.memory.manage import personal_assertions
    from pipeline.providers.registry import ProviderOptions, make_providers
    from pipeline.store import open_store
    from pipeline.store.people import create_person, create_project, get_person

    path = script or default_script()
    plan = _plan(path)
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(db_url or f"sqlite:///{Path(tmp) / 'demo.db'}")
        with store.write() as session:
            person = create_person(session, plan["person"])
            create_project(session, person, plan["project"], plan.get("seed", ""))
        providers = make_providers("scripted", ProviderOptions(script=path))
        console.rule(f"[bold]demo[/]: {shown(person.name)}, provider {shown(providers.label)}")
        for step in plan["messages"]:
            project = plan["project"] if step.get("project") else None
            where = f" [dim]in {shown(project)}[/]" if project else " [dim](no project)[/]"
            console.print(
                f"\n[bold]{shown(person.name)}[/]{where}: {shown(step['message'])}",
                highlight=False,
            )
            outcome = converse(
                store,
                person=person.name,
                project=project,
                message=step["message"],
                channel="demo",
                providers=providers,
            )
            show_turn(console, outcome, providers.label)
            with store.read() as session:
                state = personal_assertions(session, get_person(session, person.name), True)
            console.print(
                assertion_table(state, "personal memory now")
                if state
                else "  (personal memory empty)"
            )
        store.dispose()
