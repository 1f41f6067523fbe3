"""`converse runs`: what is kept of runs beyond one folder — the shards of a run merged."""

from __future__ import annotations

from pathlib import Path

import typer

from evals.commands.common import handles_errors, stdout
from evals.runner.results import check_run_id
from pipeline.cli.common import shown

runs_app = typer.Typer(help="Stored runs: merge the shards of a run into one.", no_args_is_help=True)


@runs_app.command("merge")
@handles_errors
def merge_command(
    run_id: str = typer.Argument(..., help="The id every shard was run with (--run-id)."),
    sources: list[Path] = typer.Argument(
        ..., help="Each shard's run folder, or the reports folder it was written to."
    ),
) -> None:
    """Merge the N shards of a run (`converse eval --shard K/N --run-id ID`) into one run under
    the reports folder; `converse report ID` then reports it whole."""
    from evals.runner.run import gates_of
    from evals.runner.shards import merge_shards
    from evals.runner.summary import summarize

    run = merge_shards(check_run_id(run_id), sources)
    meta = run.read_meta()
    rows = run.latest_rows()
    meta["gates_passed"] = all(g.gate_passed for g in summarize(rows, gates_of(meta)))
    run.write_meta(meta)
    stdout().print(
        f"merged {len(meta['merged_from'])} shards, {len(rows)} rows: {shown(str(run.path))}",
        highlight=False,
        soft_wrap=True,
    )
