"""Starting, resuming and retrying runs: the run folder, its config, and what is left to do."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console

from evals.dataset.load import Suite, load_suite
from evals.runner.cache import ResultCache
from evals.runner.engine import Executor, RunConfig, Tally, WorkItem, execute, plan
from evals.runner.gitinfo import git_state
from evals.runner.providers import Factory, ProviderPool, variant_label
from evals.runner.results import RunDir, RunError, new_run_id, reports_dir, row_key
from evals.runner.summary import GroupResult, summarize
from pipeline.errors import ConverseError
from pipeline.providers.registry import make_providers

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


def config_meta(config: RunConfig) -> dict[str, Any]:
    """The part of run.json that lets the run be resumed exactly."""
    return {
        "suites": [str(s.path.resolve()) for s in config.suites],
        "providers": config.providers,
        "variants": config.variants,
        "epochs": config.epochs,
        "concurrency": config.concurrency,
        "use_cache": config.use_cache,
        "script": str(config.script.resolve()) if config.script else None,
        "provider_options": config.provider_options,
        "cassette": str(config.cassette.resolve()) if config.cassette else None,
    }


def config_from_meta(meta: dict[str, Any]) -> RunConfig:
    """Rebuild a run's config from its run.json."""
    data = meta["config"]
    suites: list[Suite] = []
    for path in data["suites"]:
        if not Path(path).is_file():
            raise RunError(
                f"suite file {path} of this run is gone", "restore it, or start a new run"
            )
        suites.append(load_suite(Path(path)))
    return RunConfig(
        suites=suites,
        providers=list(data["providers"]),
        variants=[dict(v) for v in data["variants"]],
        epochs=int(data["epochs"]),
        concurrency=int(data["concurrency"]),
        use_cache=bool(data["use_cache"]),
        script=Path(data["script"]) if data.get("script") else None,
        provider_options={k: dict(v) for k, v in data.get("provider_options", {}).items()},
        cassette=Path(data["cassette"]) if data.get("cassette") else None,
    )


def gates_of(meta: dict[str, Any]) -> dict[str, Any]:
    """Suite name -> Gate, from run.json."""
    from evals.dataset.models import Gate

    return {
        s["name"]: Gate.model_validate(s["gate"]) if s.get("gate") is not None else None
        for s in meta.get("suite_info", [])
    }


def _suite_info(suites: list[Suite]) -> list[dict[str, Any]]:
    return [
        {
            "name": s.name,
            "target": s.target,
            "path": str(s.path),
            "description": s.description,
            "cases": len(s.cases),
            "gate": s.gate.model_dump() if s.gate else None,
        }
        for s in suites
    ]


def _lends_embedder(pool: ProviderPool, name: str) -> bool:
    try:
        return pool.get(name, {}).embedder is not None
    except ConverseError:
        return False  # the provider cannot start; the run says so when it builds it


def run_eval(
    config: RunConfig | None = None,
    *,
    resume: str | None = None,
    retry_errors: str | None = None,
    run_id: str | None = None,
    root: Path | None = None,
    progress: bool = True,
    console: Console | None = None,
    factory: Factory = make_providers,
    argv: list[str] | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> RunOutcome:
    """Start a run from `config`, or continue the run named by `resume` / `retry_errors`."""
    existing_id = resume or retry_errors
    if existing_id:
        run = RunDir.existing(existing_id, root)
        meta = run.read_meta()
        config = config_from_meta(meta)
        run.repair()
    else:
        if config is None:
            raise ValueError("run_eval needs a config for a new run")
        run = RunDir(run_id or new_run_id(), root)
        meta = {
            "run_id": run.run_id,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "git": git_state(),
            "argv": argv or [],
            "config": config_meta(config),
            "suite_info": _suite_info(config.suites),
        }
        run.write_meta(meta)
    pool = ProviderPool(config.script, config.provider_options, factory, config.cassette)
    items = plan(config, lambda name: _lends_embedder(pool, name))
    done = {row_key(r): r for r in run.latest_rows()}
    todo: list[WorkItem]
    if retry_errors:
        todo = [i for i in items if i.key in done and done[i.key]["status"] == "error"]
    else:
        todo = [i for i in items if i.key not in done]
    cache = (
        ResultCache((root or reports_dir()) / CACHE_FILE)
        if config.use_cache and not retry_errors
        else None
    )
    executor = Executor(run, pool, cache, on_row)
    try:
        # Build every provider before the first case, so a missing key or model is one clear
        # error instead of a run full of error rows.
        needed: dict[tuple[str, str], dict[str, str]] = {}
        for item in todo:
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
        tally = execute(todo, executor, config.concurrency, progress=progress, console=console)
    finally:
        executor.close()
        pool.close()
        if cache is not None:
            cache.close()
    rows = run.latest_rows()
    groups = summarize(rows, gates_of(meta))
    meta["finished_at"] = datetime.now(UTC).isoformat(timespec="seconds")
    meta["gates_passed"] = all(g.gate_passed for g in groups)
    run.write_meta(meta)
    return RunOutcome(run, len(todo), len(items) - len(todo), tally, groups, rows)
