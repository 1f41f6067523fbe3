"""`converse eval`: run suites, print the summary, write the report, exit non-zero on a gate."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from evals.commands.common import EXIT_GATE, EXIT_INTERRUPTED, handles_errors, stderr, stdout
from evals.runner.limits import MAX_CONCURRENCY, MAX_EPOCHS
from evals.runner.results import RUN_META, RunDir, check_run_id, new_run_id
from pipeline.cli.common import default_script
from pipeline.cli.params import bounded_option
from pipeline.errors import ConverseError
from pipeline.files import existing_file, output_path
from pipeline.providers import PROVIDER_NAMES

if TYPE_CHECKING:
    from evals.runner import RunConfig

# What a run needs (the suite models, the runner, the report, the providers) is imported when
# the command runs: its --help needs only the options.

DEFAULT_CONCURRENCY = 4
# A Claude call takes about two seconds, so at N requests a minute about N/30 are in flight;
# more threads than that would only queue on the rate limiter.
SECONDS_PER_CALL = 2

PROVIDER_HELP = f"{', '.join(PROVIDER_NAMES)}; repeat. Default: claude with a key, else local."
READING_HELP = "provider (each provider reads) or gold (the suites' gold readings replayed)."


def _check_providers(names: list[str], variants: list[dict[str, str]]) -> None:
    """Unknown providers, and --prompt for a provider that does not read it, fail up front."""
    from pipeline.providers import check_prompt_families

    families = {family for variant in variants for family in variant}
    for name in names:
        check_prompt_families(name, families)


def _replays(providers: list[str], cassette: Path | None, replay: bool | None) -> bool:
    """Whether Claude replays each suite's cassette; announced when it is for want of a key."""
    from pipeline.providers import anthropic_key_set, spec_of

    if not any(spec_of(p).uses_cassettes for p in providers) or cassette is not None:
        return False
    return not anthropic_key_set() if replay is None else replay


def default_concurrency(
    providers: list[str], replay: bool, options: dict[str, dict[str, str]]
) -> int:
    """Cases in flight when --concurrency is not given: the default, or for live Claude under
    a request rate (CONVERSE_CLAUDE_RPM, or --provider-option claude.requests_per_minute=N)
    as many as that rate keeps busy, at least one."""
    if replay or "claude" not in providers:
        return DEFAULT_CONCURRENCY
    from pipeline.providers.claude import ClaudeSettings

    rpm = ClaudeSettings.from_env(None, **options.get("claude", {})).requests_per_minute
    if not rpm:
        return DEFAULT_CONCURRENCY
    return max(1, min(DEFAULT_CONCURRENCY, rpm * SECONDS_PER_CALL // 60))


def _announce_replay(replay: bool | None) -> None:
    if replay is None:
        stderr().print(
            "[dim]claude: no ANTHROPIC_API_KEY, so each suite is replayed from its recorded "
            "cassette (fixtures/cassettes/*/suites/)[/]"
        )


@handles_errors
def eval_command(
    suite: list[str] = typer.Option(
        [],
        "--suite",
        "-s",
        help="Suite name or path (file or folder); repeat. Default: evals/suites.",
        envvar="CONVERSE_EVAL_SUITES",
    ),
    provider: list[str] = typer.Option(
        [],
        "--provider",
        help=PROVIDER_HELP,
    ),
    prompt: list[str] = typer.Option(
        [],
        "--prompt",
        help="FAMILY=VERSION, e.g. classifier=v2; repeat to compare versions.",
    ),
    epochs: int = bounded_option(
        1,
        1,
        MAX_EPOCHS,
        "--epochs",
        what="--epochs",
        help="Times each case runs.",
        envvar="CONVERSE_EVAL_EPOCHS",
    ),
    sample: int | None = typer.Option(
        None,
        "--sample",
        min=1,
        help="Run a tag-stratified sample of N cases of each suite (marked as a sample).",
        envvar="CONVERSE_EVAL_SAMPLE",
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Which sample --sample draws (default 0; same seed, same cases)."
    ),
    reducer: str | None = typer.Option(
        None,
        "--reducer",
        help="How a case's epochs reduce to one score: mean, majority, pass@k or all-k "
        "(replaces each suite's epochs_reducer; default mean).",
        envvar="CONVERSE_EVAL_REDUCER",
    ),
    concurrency: int | None = bounded_option(
        None,
        1,
        MAX_CONCURRENCY,
        "--concurrency",
        "-j",
        what="--concurrency",
        help=f"Cases in flight at once. Default {DEFAULT_CONCURRENCY}, fewer for live Claude "
        "under CONVERSE_CLAUDE_RPM.",
        envvar="CONVERSE_EVAL_CONCURRENCY",
    ),
    no_cache: bool = typer.Option(
        False, "--no-cache", help="Ask providers again even for cached answers."
    ),
    resume: str | None = typer.Option(
        None, "--resume", help="Finish run RUN_ID with its own settings."
    ),
    retry_errors: str | None = typer.Option(
        None, "--retry-errors", help="Rerun only the errored cases of RUN_ID."
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Print the result object as JSON on stdout."
    ),
    junit: Path | None = typer.Option(None, "--junit", help="Also write JUnit XML here."),
    script: Path | None = typer.Option(None, "--script", help="Fixture of the scripted provider."),
    provider_option: list[str] = typer.Option(
        [],
        "--provider-option",
        help="PROVIDER.KEY=VALUE passed to a provider's constructor; with --resume or "
        "--retry-errors, gives again a key or password run.json hides.",
    ),
    cassette: Path | None = typer.Option(
        None,
        "--cassette",
        help="Replay the claude provider from this cassette (no key, no network).",
    ),
    replay: bool | None = typer.Option(
        None,
        "--replay/--live",
        help="Claude from each suite's recorded cassette, or from the API. Default: live with "
        "ANTHROPIC_API_KEY, else replay.",
    ),
    report: bool = typer.Option(
        True, "--report/--no-report", help="Write report.md and report.html."
    ),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="Show the progress bar."),
    max_cost: float | None = typer.Option(
        None,
        "--max-cost",
        min=0.0,
        help="Stop before live Claude calls would cost more than USD; --resume continues.",
        envvar="CONVERSE_EVAL_MAX_COST",
    ),
    shard: str | None = typer.Option(
        None,
        "--shard",
        help="K/N: run slice K of N of the plan (give every shard the same --run-id; merge "
        "them with `converse runs merge RUN_ID FOLDER...`).",
        envvar="CONVERSE_EVAL_SHARD",
    ),
    run_id_option: str | None = typer.Option(
        None,
        "--run-id",
        help="The new run's id (shards of one run share it).",
        envvar="CONVERSE_EVAL_RUN_ID",
    ),
    cost_estimate: str = typer.Option(
        "count_tokens",
        "--cost-estimate",
        help="How --max-cost sizes a call's input: count_tokens (the API) or characters "
        "(four a token, an estimate).",
        envvar="CONVERSE_EVAL_COST_ESTIMATE",
    ),
    perturb: list[str] = typer.Option(
        [],
        "--perturb",
        help="Also run each message rewritten: transforms or presets, comma-separated "
        "(e.g. casual,keyboard_typos; all; none). Default: each suite's own `perturb:`.",
        envvar="CONVERSE_EVAL_PERTURB",
    ),
    perturb_seed: int = typer.Option(
        0, "--perturb-seed", help="Seed of the perturbations.", envvar="CONVERSE_EVAL_PERTURB_SEED"
    ),
    batch: bool = typer.Option(
        False,
        "--batch",
        help="Send live Claude calls through Message Batches (half price, results within "
        "24 h); --resume RUN polls and collects from any process.",
        envvar="CONVERSE_EVAL_BATCH",
    ),
    reading: str = typer.Option(
        "provider", "--reading", help=READING_HELP, envvar="CONVERSE_EVAL_READING"
    ),
    batch_poll: float | None = typer.Option(
        None,
        "--batch-poll",
        min=0.0,
        help="Seconds between polls of a batch (default 60).",
        envvar="CONVERSE_EVAL_BATCH_POLL",
    ),
) -> None:
    """Run eval suites on providers and prompt versions; exit 1 when a gate fails."""
    from evals.commands.batch_mode import batch_mode, batch_runner
    from evals.commands.eval_tables import print_summary
    from evals.commands.reading import check_reading, print_reading, reading_payload
    from evals.commands.spend import announce_budget_stop, make_budget
    from evals.dataset import load_suites, sample_suite
    from evals.perturb import parse_perturbations, split_rows
    from evals.report import build_report
    from evals.report.calibration import calibrate, calibration_json
    from evals.runner import (
        EvalOptions,
        RunConfig,
        parse_prompt_options,
        parse_provider_options,
        result_object,
        write_junit,
    )
    from evals.runner.gold import GOLD
    from evals.runner.run import check_cassettes, run_eval
    from evals.runner.shards import parse_shard
    from pipeline.providers import default_provider

    if resume and retry_errors:
        raise ConverseError("--resume and --retry-errors name one run each", "use one of them")
    if (cassette is not None or replay) and epochs > 1:
        raise ConverseError(
            "a cassette holds one answer per request, so epochs past the first cannot replay",
            "drop --epochs, or run live with ANTHROPIC_API_KEY",
        )
    if reducer is not None:
        from evals.runner.reducers import check_reducer

        try:
            check_reducer(reducer)
        except ValueError as exc:
            raise ConverseError(str(exc), "e.g. --reducer pass@k") from None
    if seed is not None and sample is None:
        raise ConverseError("--seed chooses which sample --sample draws", "pass --sample N with it")
    if cassette is not None:
        existing_file(cassette, "cassette", "name a cassette `converse record` wrote")
    if script is not None:
        existing_file(script, "script", "pass an existing fixture file")
    if junit is not None:  # refused before anything runs: a folder, a device, a missing folder
        output_path(junit, "JUnit XML")
    existing = resume or retry_errors
    if existing is not None:
        check_run_id(existing)
    gold = check_reading(reading, {
        "--provider": provider, "--prompt": prompt, "--cassette": cassette, "--script": script,
        "--replay/--live": replay, "--perturb": perturb, "--provider-option": provider_option,
        "--batch": batch, "--max-cost": max_cost})  # fmt: skip
    config: RunConfig | None = None
    if existing is None:
        parse_perturbations(perturb)  # a bad name stops the run before anything is read
        providers = [GOLD] if gold else list(dict.fromkeys(provider)) or [default_provider()]
        variants = parse_prompt_options(prompt)
        _check_providers([] if gold else providers, variants)
        options = parse_provider_options(provider_option)
        replays = not gold and _replays(providers, cassette, replay)
        suites = load_suites(suite)
        if sample is not None:
            suites = [sample_suite(s, sample, seed or 0) for s in suites]
        if reducer is not None:
            suites = [replace(s, reducer=reducer) for s in suites]
        config = RunConfig(
            suites=suites,
            providers=providers,
            variants=variants,
            epochs=epochs,
            concurrency=concurrency or default_concurrency(providers, replays, options),
            use_cache=not no_cache,
            script=script or (default_script() if "scripted" in providers else None),
            provider_options=options,
            cassette=cassette,
            replay=replays,
            perturb=tuple(perturb) if perturb else None,
            perturb_seed=perturb_seed,
            sample=sample,
            seed=seed or 0,
            reading=reading,
        )
        if config.replay:
            # Before anything is printed or written: every suite needs its cassette.
            check_cassettes(config.suites)
            _announce_replay(replay)
    elif suite or provider or prompt or perturb or sample is not None:
        stderr().print(
            f"[dim]continuing run {existing} with its own suites, providers and prompts[/]"
        )
    budget = make_budget(max_cost, cost_estimate, config)
    batched = batch_mode(batch, config, resume=resume, retry_errors=retry_errors, max_cost=max_cost)
    if existing is not None and (shard or run_id_option):
        raise ConverseError(
            "--shard and --run-id start a run; a resumed run keeps its own",
            f"drop them: converse eval --resume {existing}",
        )
    slice_ = parse_shard(shard) if shard else None
    run_id = existing or (check_run_id(run_id_option) if run_id_option else new_run_id())
    if existing is None and (RunDir(run_id).path / RUN_META).is_file():
        raise ConverseError(
            f"run {run_id} already exists under {RunDir(run_id).path.parent}",
            f"continue it with --resume {run_id}, or give each shard its own CONVERSE_REPORTS_DIR",
        )
    tables = stderr() if as_json else stdout()
    from evals.runstore import open_recorder  # SQLAlchemy and Alembic: only for a run

    recorder = open_recorder()
    stderr().print(f"[bold]run[/] {run_id}", highlight=False)
    runner = batch_runner(batch_poll) if batched else run_eval
    try:
        outcome = runner(
            EvalOptions(
                config,
                resume=resume,
                retry_errors=retry_errors,
                run_id=run_id,
                progress=progress and sys.stderr.isatty(),
                console=stderr(),
                argv=sys.argv[1:],
                budget=budget,
                shard=slice_,
                on_row=recorder.on_row if recorder is not None else None,
                # run.json hides keys and passwords: a resumed run is given them again here
                secrets=parse_provider_options(provider_option) if existing else None,
            )
        )
    except KeyboardInterrupt:
        if (RunDir(run_id).path / RUN_META).is_file():
            stderr().print(
                f"\ninterrupted; finished cases are saved. Resume: converse eval --resume {run_id}"
            )
        else:  # stopped before the run started: there is nothing to resume
            stderr().print("\ninterrupted before the run started; nothing was saved")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        if recorder is not None:
            recorder.finish(run_id)
    report_path: str | None = None
    if report:
        built = build_report(outcome.run.run_id)
        report_path = str(built.html)
    if junit is not None:
        write_junit(junit, split_rows(outcome.rows)[0], outcome.groups)
    print_summary(
        tables,
        outcome.run,
        outcome.groups,
        outcome.ran,
        outcome.skipped,
        report_path,
        reading=lambda: print_reading(tables, outcome.groups, outcome.not_runnable),
    )
    payload = result_object(outcome.run.run_id, report_path, outcome.groups)
    payload.update(reading_payload(gold, outcome.groups, outcome.not_runnable))
    calibrated = calibrate(outcome.rows)
    if calibrated:  # some row read a message (evals/report/calibration.py)
        payload["calibration"] = calibration_json(calibrated)
    if outcome.budget is not None:
        payload["budget"] = outcome.budget
    if as_json:
        print(json.dumps(payload, ensure_ascii=False))
    if outcome.stopped_by_budget:
        announce_budget_stop(outcome)
        raise typer.Exit(EXIT_INTERRUPTED)
    if not payload["gates_passed"]:
        raise typer.Exit(EXIT_GATE)
