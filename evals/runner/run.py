"""Starting, resuming and retrying runs: the run folder, its config, and what is left to do."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.dataset.load import Suite
from evals.runner.cache import ResultCache
from evals.runner.engine import (
    Executor,
    RunConfig,
    Tally,
    WorkItem,
    execute,
    plan,
)
from evals.runner.gold import GOLD, split_runnable
from evals.runner.options import EvalOptions
from evals.runner.providers import DETERMINISTIC, ProviderPool, Registry, variant_label
from evals.runner.results import (
    RESULTS,
    RUN_META,
    RunDir,
    RunError,
    reports_dir,
    row_key,
)
from evals.runner.run_meta import (
    gates_of,
    open_run,
    reducers_of,
)
from evals.runner.sandbox import Sandbox
from evals.runner.shards import Shard
from evals.runner.summary import GroupResult, summarize
from evals.targets import targets_where
from pipeline.errors import ConverseError

CACHE_FILE = "cache/answers.sqlite"


@dataclass(frozen=True)
class RunOutcome:
    """A finished (or resumed) run: where it is, what ran now, and its groups."""

    run: RunDir
    ran: int
    skipped: int
    tally: Tally
    groups: list[GroupResult]
    rows: list[dict[str, Any]]
    # The spending bound's account (`--max-cost`), when the run had one.
    budget: dict[str, Any] | None = None
    # `--reading gold`: the cases left out for want of a gold reading (suite, case_id, reason)
    not_runnable: tuple[dict[str, str], ...] = ()

    @property
    def stopped_by_budget(self) -> bool:
        """Whether the bound stopped the run before every case ran."""
        return bool(self.budget and self.budget["stopped"])


def _lends_embedder(pool: ProviderPool, name: str) -> bool:
    try:
        return pool.get(name, {}).embedder is not None
    except ConverseError:
        return False  # the provider cannot start; the run says so when it builds it


def _lends_generator(pool: ProviderPool, name: str) -> bool:
    """Whether closure suites run on this provider: it answers the compression stages with a
    model. A provider that cannot start is planned, so the run says why it cannot."""
    try:
        return pool.get(name, {}).structured is not None
    except ConverseError:
        return True


def suite_cassette(suite: str) -> Path | None:
    """The recorded cassette of a suite (`converse record`): a real one, else a synthetic one."""
    from evals.cassettes.config import REAL, SYNTHETIC, cassettes_dir

    for kind in (REAL, SYNTHETIC):
        path = cassettes_dir() / kind / "suites" / f"{suite}.yaml"
        if path.is_file():
            return path
    return None


def _phases(
    config: RunConfig, todo: list[WorkItem], pool: ProviderPool, registry: Registry
) -> list[tuple[ProviderPool, list[WorkItem]]]:
    """Work grouped by the providers it needs.

    A cassette patches the HTTP client for the whole process, so a provider that declares
    cassettes (Claude), replaying each suite's own cassette, runs one suite at a time, after
    everything else.
    """
    if not config.replay:
        return [(pool, todo)]

    def _replayable(provider: str) -> bool:
        return provider != DETERMINISTIC and pool.spec(provider).uses_cassettes

    replayed = [i for i in todo if _replayable(i.provider)]
    phases = [(pool, [i for i in todo if not _replayable(i.provider)])]
    suites = {i.suite.name: i.suite for i in replayed}
    check_cassettes(list(suites.values()))
    for name in suites:
        cassette = suite_cassette(name)
        suite_pool = ProviderPool(config.script, config.provider_options, registry, cassette)
        phases.append((suite_pool, [i for i in replayed if i.suite.name == name]))
    return phases


def check_cassettes(suites: list[Suite]) -> None:
    """A RunError naming the exact record command of each model suite with no cassette; run
    before anything is written, so a run that cannot replay leaves nothing behind."""
    replayed = set(targets_where("replayed"))
    missing = [s for s in suites if s.target in replayed and suite_cassette(s.name) is None]
    if missing:
        raise RunError(*_no_cassettes(missing))


def _no_cassettes(missing: list[Suite]) -> tuple[str, str]:
    """The one-line error for suites Claude would replay but that have no cassette: the exact
    command that records each."""
    from evals.record import command_for

    names = ", ".join(s.name for s in missing)
    commands = "; ".join(command_for(s) for s in missing)
    one = len(missing) == 1
    return (
        f"no recorded cassette{'' if one else 's'} for suite{'' if one else 's'} {names}, so "
        "Claude cannot be "
        "replayed",
        f"record {'it' if one else 'them'} with ANTHROPIC_API_KEY set: {commands}"
        + ("" if one else " (or every suite: converse record --all)")
        + "; or set ANTHROPIC_API_KEY to run live",
    )


def _start_providers(pool: ProviderPool, items: list[WorkItem]) -> None:
    """Build every provider before the first case: a missing key or model is one clear error
    instead of a run full of error rows."""
    needed: dict[tuple[str, str], dict[str, str]] = {}
    for item in items:
        needed.setdefault((item.provider, variant_label(item.variant)), item.variant)
    for (provider, _), variant in needed.items():
        try:
            pool.get(provider, variant)
        except ConverseError:
            raise
        except Exception as exc:
            raise RunError(
                f"the {provider} provider cannot start: {type(exc).__name__}: {exc}",
                "check that it is installed and configured (docs/evals.md, Providers)",
            ) from exc


def _discard_if_empty(run: RunDir) -> None:
    """Remove a new run's folder when it failed before any case finished (e.g. a later
    phase's provider could not start after an empty first phase): nothing to resume."""
    run.close()
    if run.latest_rows():
        return
    for name in (RUN_META, RESULTS):
        (run.path / name).unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # something else was put there: leave it
        run.path.rmdir()


def _planned(
    items: list[WorkItem], shard: Shard | None, config: RunConfig, meta: dict[str, Any]
) -> tuple[list[WorkItem], list[dict[str, str]]]:
    """The run's items: its shard's, and under `--reading gold` those with gold readings (the
    cases left out are recorded in run.json)."""
    if shard is not None:
        items = [i for i in items if shard.holds(i.key)]
    left_out: list[dict[str, str]] = []
    if config.reading == GOLD:
        items, left_out = split_runnable(items)
        meta["not_runnable"] = left_out
    if shard is not None:
        meta.setdefault("planned", len(items))  # a merge refuses a shard with fewer rows
    return items, left_out


@dataclass
class _Executing:
    """What the phases of a run share while they execute: where rows go and how."""

    folder: RunDir
    meta: dict[str, Any]
    cache: ResultCache | None
    options: EvalOptions

    def execute(
        self,
        config: RunConfig,
        phases: list[tuple[ProviderPool, list[WorkItem]]],
        pool: ProviderPool,
        *,
        started: bool,
    ) -> Tally:
        """Execute each phase's items; a new run that fails before a row leaves no folder."""
        sandbox = Sandbox()
        tally = Tally()
        resumed = started
        try:
            for phase_pool, phase_items in phases:
                _start_providers(phase_pool, phase_items)
                if not started:
                    # The folder appears only once the run can start: a run that failed to
                    # start must not be offered for resuming (`converse report`, `--resume`).
                    self.folder.write_meta(self.meta)
                    started = True
                executor = Executor(
                    self.folder, phase_pool, self.cache, self.options.on_row, sandbox,
                    self.options.budget, self.options.deferral,
                )  # fmt: skip
                done_now = execute(
                    phase_items,
                    executor,
                    config.concurrency,
                    progress=self.options.progress,
                    console=self.options.console,
                )
                tally = tally.plus(done_now)
                if phase_pool is not pool:
                    phase_pool.close()
        except Exception:
            if not resumed:
                _discard_if_empty(self.folder)
            raise
        finally:
            sandbox.close()
            self.folder.close()
            for phase_pool, _ in phases:
                phase_pool.close()
            if self.cache is not None:
                self.cache.close()
        return tally


def run_eval(options: EvalOptions) -> RunOutcome:
    """Start the run `options` describe, or continue the one it names (`EvalOptions`)."""
    budget, retry_errors = options.budget, options.retry_errors
    run, meta, config, shard = open_run(options)
    guard: list[Any] = list(options.middleware)
    if budget is not None:
        from pipeline.providers.claude import BudgetGuard

        guard.append(BudgetGuard(budget))
    pool = ProviderPool(
        config.script, config.provider_options, options.registry, config.cassette, middleware=guard
    )
    items = plan(
        config,
        lambda name: _lends_embedder(pool, name),
        lambda name: _lends_generator(pool, name),
    )
    items, left_out = _planned(items, shard, config, meta)
    done = {row_key(r): r for r in run.latest_rows()}
    # a retry runs again what errored; a resume what has no row yet
    todo = [
        i
        for i in items
        if (done.get(i.key, {}).get("status") == "error" if retry_errors else i.key not in done)
    ]
    phases = _phases(config, todo, pool, options.registry)
    cache = (
        ResultCache((options.root or reports_dir()) / CACHE_FILE)
        if config.use_cache and not retry_errors
        else None
    )
    executing = _Executing(run, meta, cache, options)
    tally = executing.execute(config, phases, pool, started=options.existing_id is not None)
    rows = run.latest_rows()
    groups = summarize(rows, gates_of(meta), reducers_of(meta))
    meta["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    meta["gates_passed"] = all(g.gate_passed for g in groups)
    account = budget.summary() if budget is not None else None
    if account is not None:
        meta.setdefault("budgets", []).append(account)
    run.write_meta(meta)
    ran = len(todo)
    if account is not None and account["stopped"]:
        ran -= len(items) - len(rows)  # the cases the bound left for --resume
    return RunOutcome(
        run, ran, len(items) - len(todo), tally, groups, rows, account, tuple(left_out)
    )
