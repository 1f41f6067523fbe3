"""`converse runs`: runs beyond one folder — the run store (list, show, trend, push) and the
shards of a run merged into one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from evals.commands.common import handles_errors, stderr, stdout
from evals.runner.results import RunError, check_run_id, reports_dir
from pipeline.cli.common import shown
from pipeline.cli.params import bounded_option
from pipeline.files import output_path, write_output
from pipeline.redact import redact
from pipeline.text import text_problem

# More runs than any store holds, and well inside a 64-bit LIMIT.
MAX_LIMIT = 1_000_000

runs_app = typer.Typer(
    help="Stored runs: list, show, trend and push (CONVERSE_RUNS_URL); merge shards.",
    no_args_is_help=True,
)


def _store() -> Any:
    from evals.runstore import RunStore, runs_url

    url = runs_url()
    if url is None:
        raise RunError(
            "the run store is off (CONVERSE_RUNS_URL=none)",
            "set CONVERSE_RUNS_URL to a database URL, or unset it for reports/runs.sqlite",
        )
    return RunStore(url)


def _check_suite(suite: str | None) -> None:
    """A suite name the database driver can take: bad bytes are one line, not a traceback."""
    problem = text_problem(suite) if suite is not None else None
    if problem:
        raise RunError(f"--suite {problem}", "name a suite as `converse runs list` shows it")


def _cost(value: float | None, unpriced: int) -> str:
    if value is None:
        return "unpriced"
    return f"{value:.4f}" + (f" (+{unpriced} unpriced)" if unpriced else "")


@runs_app.command("list")
@handles_errors
def list_command(
    suite: str | None = typer.Option(None, "--suite", help="Only runs with rows of this suite."),
    limit: int = bounded_option(
        20, 1, MAX_LIMIT, "--limit", what="--limit", help="How many runs, newest first."
    ),
) -> None:
    """The newest stored runs: when, which commit, providers, models, prompts, rows, cost."""
    _check_suite(suite)
    store = _store()
    try:
        found = store.list_runs(limit=limit, suite=suite)
    finally:
        store.close()
    table = Table(title="stored runs", title_justify="left")
    for name in (
        "run",
        "created",
        "commit",
        "providers",
        "models",
        "prompts",
        "rows",
        "cost (USD)",
        "gates",
    ):
        table.add_column(name, justify="right" if name in ("rows",) else "left")
    for run in found:
        commit = str(run["git_commit"] or "")[:10] + (" dirty" if run["git_dirty"] else "")
        prompts = ", ".join(f"{p['family']}={p['version']}" for p in run["prompts"])
        gates = {True: "pass", False: "FAIL", None: "—"}[run["gates_passed"]]
        table.add_row(
            run["run_id"], shown(run["created_at"]), shown(commit),
            shown(", ".join(run["providers"])), shown(", ".join(run["models"])), shown(prompts),
            str(run["rows"]),
            _cost(run["cost_usd"], run["unpriced_rows"]), gates,
        )  # fmt: skip
    stdout().print(table)


@runs_app.command("show")
@handles_errors
def show_command(run_id: str = typer.Argument(..., help="A stored run.")) -> None:
    """One stored run: its metadata, prompt hashes, and accuracy per suite and provider."""
    from evals.runner.run_meta import gates_of, reducers_of
    from evals.runner.summary import summarize

    check_run_id(run_id)
    store = _store()
    try:
        run = store.get_run(run_id)
        if run is None:
            raise RunError(f"the run store holds no run {run_id}", "see `converse runs list`")
        rows = store.rows_of([run_id])[run_id]
    finally:
        store.close()
    out = stdout()
    commit = f"{run['git_commit']}{' (dirty)' if run['git_dirty'] else ''}"
    out.print(
        f"run {run_id}: created {shown(run['created_at'])}, finished "
        f"{shown(str(run['finished_at'] or '—'))}, commit {shown(commit)}",
        highlight=False,
    )
    out.print(f"cost: {_cost(run['cost_usd'], run['unpriced_rows'])} USD; rows: {run['rows']}",
              highlight=False)  # fmt: skip
    for p in run["prompts"]:
        out.print(f"prompt {shown(p['family'])}={shown(p['version'])} sha256 {p['sha256'][:16]}",
                  highlight=False)  # fmt: skip
    table = Table(title=f"run {run_id}", title_justify="left")
    for name in ("suite", "provider", "n", "passed", "errors", "accuracy", "gate"):
        table.add_column(name)
    for g in summarize(rows, gates_of(run["meta"]), reducers_of(run["meta"])):
        acc = "—" if g.accuracy is None else f"{g.accuracy:.1%}"
        table.add_row(shown(g.suite), shown(g.label), str(g.n), str(g.passed), str(g.errors), acc,
                      "pass" if g.gate_passed else "FAIL")  # fmt: skip
    out.print(table)


@runs_app.command("trend")
@handles_errors
def trend_command(
    suite: str | None = typer.Option(None, "--suite", help="One suite (default: every suite)."),
    limit: int = bounded_option(
        30, 1, MAX_LIMIT, "--limit", what="--limit", help="The newest N runs."
    ),
    out: Path | None = typer.Option(None, "--out", help="Where to write the HTML."),
) -> None:
    """Accuracy per suite and provider across stored runs, with 95% intervals: an HTML page
    with an SVG plot (default reports/trend.html)."""
    from evals.runstore.trend import html, points

    _check_suite(suite)
    if out is None:  # the default folder is made; a folder named on the command line is not
        out = reports_dir() / "trend.html"
        out.parent.mkdir(parents=True, exist_ok=True)
    output_path(out, "trend page")  # refused before the store is read
    store = _store()
    try:
        runs = list(reversed(store.list_runs(limit=limit, suite=suite)))
        rows = store.rows_of([r["run_id"] for r in runs])
    finally:
        store.close()
    if not runs:
        raise RunError("the run store holds no runs" + (f" of suite {suite}" if suite else ""),
                       "run `converse eval` first")  # fmt: skip
    found = points(runs, rows, suite)
    title = f"Accuracy across runs{f' — {suite}' if suite else ''}"
    write_output(out, html(runs, found, title), "trend page")
    stdout().print(f"{len(runs)} runs, {len(found)} points: {shown(str(out))}", highlight=False,
                   soft_wrap=True)  # fmt: skip


@runs_app.command("push")
@handles_errors
def push_command(
    run_id: str = typer.Argument(..., help="A run in the local reports folder."),
) -> None:
    """Copy a local run's metadata and any rows the store lacks into the run store."""
    from evals.runner.results import RunDir

    run = RunDir.existing(check_run_id(run_id))
    store = _store()
    try:
        added = store.sync(run.read_meta(), run.latest_rows())
    finally:
        store.close()
    stdout().print(f"run {run_id}: {added} rows added to the run store", highlight=False)


@runs_app.command("merge")
@handles_errors
def merge_command(
    run_id: str = typer.Argument(..., help="The id every shard was run with (--run-id)."),
    sources: list[Path] = typer.Argument(
        ..., help="Each shard's run folder, or the reports folder it was written to."
    ),
    allow_mismatch: bool = typer.Option(
        False,
        "--allow-mismatch",
        help="Merge shards made at different commits, from different suite contents or by "
        "differently labelled providers (run.json names the differences).",
    ),
) -> None:
    """Merge the N shards of a run (`converse eval --shard K/N --run-id ID`) into one run under
    the reports folder and the run store; `converse report ID` then reports it whole."""
    from evals.runner.merge import merge_shards
    from evals.runner.run_meta import gates_of, reducers_of
    from evals.runner.summary import summarize

    run = merge_shards(check_run_id(run_id), sources, allow_mismatch=allow_mismatch)
    meta = run.read_meta()
    rows = run.latest_rows()
    meta["gates_passed"] = all(
        g.gate_passed for g in summarize(rows, gates_of(meta), reducers_of(meta))
    )
    run.write_meta(meta)
    out = stdout()
    out.print(
        f"merged {len(meta['merged_from'])} shards, {len(rows)} rows: {shown(str(run.path))}",
        highlight=False,
        soft_wrap=True,
    )
    for difference in meta.get("mismatches", []):
        stderr().print(f"warning: merged despite {shown(difference)}", highlight=False)
    _store_merged(run_id, run.read_meta(), rows)


def _store_merged(run_id: str, meta: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    """Put the merged run in the run store, so `runs show` finds it; a store that is off or
    fails leaves the merged folder as it is and says how to copy it later."""
    from evals.runstore import runs_url

    if runs_url() is None:
        return
    try:
        store = _store()
        try:
            added = store.sync(meta, rows)
        finally:
            store.close()
    except Exception as exc:  # the merged folder is written; the store can catch up later
        reason = redact(f"{type(exc).__name__}: {exc}".splitlines()[0])
        stderr().print(
            f"warning: the run store did not take run {run_id} ({shown(reason)}); "
            f"`converse runs push {run_id}` copies it later",
            highlight=False,
            soft_wrap=True,
        )
        return
    stdout().print(f"run {run_id}: in the run store ({added} rows added)", highlight=False)
