"""`converse record --suite NAME`: record a classify suite's model calls to a cassette.

Against the real API (ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL if set) the cassette goes to
fixtures/cassettes/real/suites/NAME.yaml; with --synthetic ANSWERS the loopback server answers
and it goes to fixtures/cassettes/synthetic/suites/NAME.yaml. The suite is read minimally here
(name, target, and each case's id, message, project and history); scoring is `converse eval`.
The cassette is replaced only when every call succeeded; otherwise the command exits 3 (a
provider failed) naming the failed cases, and the cassette that was there stays as it was.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
import yaml

from evals.cassettes.config import REAL, SYNTHETIC, cassettes_dir
from evals.cassettes.session import cassette_claude
from evals.cassettes.stale import relative
from pipeline.cli.common import console, handles_errors
from pipeline.config import PROJECT_ROOT
from pipeline.domain import HistoryTurn, Role
from pipeline.errors import ConverseError, ProviderError
from pipeline.prompting import default_library
from pipeline.providers.base import ClassifyRequest

NO_KEY = (
    "converse record calls the real Anthropic API and ANTHROPIC_API_KEY is not set",
    "export ANTHROPIC_API_KEY=... (it never reaches a cassette), or pass --synthetic ANSWERS "
    "to record from the loopback server",
)


@dataclass(frozen=True)
class RecordCase:
    """What recording needs of a suite case: the classifier's input."""

    id: str
    request: ClassifyRequest


def suite_path(suite: str) -> Path:
    """A suite file: a path as given, else evals/suites/NAME.yaml."""
    given = Path(suite)
    if given.suffix in (".yaml", ".yml") or given.exists():
        return given
    return Path(os.environ.get("CONVERSE_SUITES_DIR") or PROJECT_ROOT / "evals" / "suites") / (
        f"{suite}.yaml"
    )


def _history(raw: Any, where: str) -> tuple[HistoryTurn, ...]:
    turns: list[HistoryTurn] = []
    for entry in raw or []:
        role = next((r for r in Role if isinstance(entry, dict) and r.value in entry), None)
        if role is None:
            raise ConverseError(f"{where}: history entries need `operator:` or `companion:`")
        turns.append(
            HistoryTurn(
                role=role,
                content=str(entry[role.value]),
                intent=entry.get("intent"),
                operation_data=dict(entry.get("operation_data") or {}),
            )
        )
    return tuple(turns)


def read_suite(path: Path) -> tuple[str, str, list[RecordCase]]:
    """The suite's name, target, and the classifier input of each case."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError as exc:
        raise ConverseError(
            f"suite {path} not found", "pass a name under evals/suites or a path"
        ) from exc
    except yaml.YAMLError as exc:
        raise ConverseError(f"suite {path} is not valid YAML: {exc}", "fix the file") from exc
    if not isinstance(data, dict) or not data.get("name") or not data.get("target"):
        raise ConverseError(f"suite {path} needs `name` and `target`", "see DESIGN.md, suite files")
    cases = []
    for index, raw in enumerate(data.get("cases") or []):
        where = (
            f"suite {path}, case {raw.get('id', index + 1) if isinstance(raw, dict) else index + 1}"
        )
        if not isinstance(raw, dict) or not raw.get("id") or not raw.get("message"):
            raise ConverseError(f"{where}: needs `id` and `message`", "fix the case")
        request = ClassifyRequest(
            message=str(raw["message"]),
            history=_history(raw.get("history"), where),
            project_name=raw.get("project"),
        )
        cases.append(RecordCase(str(raw["id"]), request))
    return str(data["name"]), str(data["target"]), cases


def _overrides(prompts: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for option in prompts:
        family, sep, version = option.partition("=")
        if not sep or not family or not version:
            raise ConverseError(
                f"--prompt {option!r} is not FAMILY=VERSION", "e.g. --prompt classifier=v2"
            )
        found[family.strip()] = version.strip()
    return found


@handles_errors
def record(
    suite: str = typer.Option(..., "--suite", help="A suite name under evals/suites, or a path."),
    synthetic: Path | None = typer.Option(
        None,
        "--synthetic",
        help="Answers file for the loopback server: record synthetic cassettes, no key needed.",
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Cassettes root (default: fixtures/cassettes)."
    ),
    prompt: list[str] = typer.Option(
        [], "--prompt", help="Record a prompt version: FAMILY=VERSION."
    ),
) -> None:
    """Record a classify suite's Claude calls to a cassette (real API, or --synthetic)."""
    if synthetic is None and not os.environ.get("ANTHROPIC_API_KEY"):
        raise ConverseError(*NO_KEY)
    path = suite_path(suite)
    name, target, cases = read_suite(path)
    if target != "classify":
        raise ConverseError(
            f"suite {name} targets {target}; only classify suites are recorded",
            "memory_block and forget_match make no model calls; conversation suites are not "
            "recorded yet",
        )
    overrides = _overrides(prompt)
    kind = SYNTHETIC if synthetic is not None else REAL
    cassette = (out or cassettes_dir()) / kind / "suites" / f"{name}.yaml"
    command = ["converse", "record", "--suite", suite]
    if synthetic is not None:
        command += ["--synthetic", str(synthetic)]
    if out is not None:
        command += ["--out", str(out)]
    for family, version in overrides.items():
        command += ["--prompt", f"{family}={version}"]
    rerecord = shlex.join(command)
    # Recorded beside the cassette and moved into place only when every call succeeded: a
    # failed recording must never replace a good cassette with an empty or broken one.
    partial = cassette.with_name(f".{cassette.name}.recording-{os.getpid()}")
    failed: list[str] = []
    try:
        with cassette_claude(
            partial,
            mode="record",
            rerecord=rerecord,
            answers=synthetic,
            library=default_library(overrides),
            overrides=overrides,
        ) as session:
            for case in cases:
                got = session.providers.classifier.classify(case.request)
                if got.error is not None:
                    failed.append(case.id)
                detail = f"error: {got.error}" if got.error else got.intent
                console.print(f"  {case.id}: {detail}", markup=False, highlight=False)
                for note in session.retries.take_notes() if session.retries else ():
                    console.print(f"    {note}", markup=False, highlight=False)
            calls = len(session.cassette.requests)
        if failed:
            raise ProviderError(
                f"{len(failed)} of {len(cases)} calls failed ({', '.join(failed)}); "
                f"{relative(cassette)} was left as it was",
                f"fix the cause and re-run `{rerecord}`",
            )
        if partial.exists():
            partial.replace(cassette)
    finally:
        partial.unlink(missing_ok=True)
    console.print(
        f"Recorded {calls} calls for {len(cases)} cases of {name} to {relative(cassette)} "
        f"({'synthetic: loopback answers' if synthetic is not None else 'real API'}).",
        highlight=False,
        soft_wrap=True,
    )
