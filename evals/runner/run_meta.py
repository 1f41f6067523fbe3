"""A run's run.json: what a config becomes there and is read back from, the gates and epoch
reducers it records, and the opening of a run folder, new or to resume."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evals.dataset.load import Suite, load_suite
from evals.dataset.sample import sample_suite
from evals.runner.engine import RunConfig
from evals.runner.gitinfo import git_state
from evals.runner.results import RunDir, RunError, new_run_id
from evals.runner.shards import Shard, shard_of
from pipeline.redact import unredacted

if TYPE_CHECKING:
    from evals.runner.options import EvalOptions


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
        "replay": config.replay,
        "perturb": None if config.perturb is None else list(config.perturb),
        "perturb_seed": config.perturb_seed,
        **({"sample": {"n": config.sample, "seed": config.seed}} if config.sample else {}),
        "reading": config.reading,
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
    sample = data.get("sample") or {}
    if sample:  # the same seed draws the same cases again
        suites = [sample_suite(s, int(sample["n"]), int(sample["seed"])) for s in suites]
    return RunConfig(
        suites=suites,
        providers=list(data["providers"]),
        variants=[dict(v) for v in data["variants"]],
        epochs=int(data["epochs"]),
        concurrency=int(data["concurrency"]),
        use_cache=bool(data["use_cache"]),
        script=Path(data["script"]) if data.get("script") else None,
        # run.json hides keys and passwords: a resumed run reads them from the environment
        provider_options={k: unredacted(v) for k, v in data.get("provider_options", {}).items()},
        cassette=Path(data["cassette"]) if data.get("cassette") else None,
        replay=bool(data.get("replay", False)),
        perturb=None if data.get("perturb") is None else tuple(data["perturb"]),
        perturb_seed=int(data.get("perturb_seed", 0)),
        sample=int(sample["n"]) if sample else None,
        seed=int(sample["seed"]) if sample else 0,
        reading=str(data.get("reading") or "provider"),
    )


def with_options(config: RunConfig, given: dict[str, dict[str, str]] | None) -> RunConfig:
    """`config` with provider options given again laid over its own (a resumed run's keys)."""
    if not given:
        return config
    merged = {k: dict(v) for k, v in config.provider_options.items()}
    for provider, options in given.items():
        merged.setdefault(provider, {}).update(options)
    return replace(config, provider_options=merged)


def gates_of(meta: dict[str, Any]) -> dict[str, Any]:
    """Suite name -> Gate, from run.json."""
    from evals.dataset.models import Gate

    return {
        s["name"]: Gate.model_validate(s["gate"]) if s.get("gate") is not None else None
        for s in meta.get("suite_info", [])
    }


def reducers_of(meta: dict[str, Any]) -> dict[str, str]:
    """Suite name -> how its epochs reduce (run.json's suite_info; mean when not said)."""
    return {
        str(s["name"]): str(s.get("reducer") or "mean")
        for s in meta.get("suite_info", [])
        if isinstance(s, dict) and "name" in s
    }


def _suite_info(suites: list[Suite]) -> list[dict[str, Any]]:
    return [
        {
            "name": s.name,
            "target": s.target,
            "path": str(s.path),
            "description": s.description,
            "cases": len(s.cases),
            # the cases' content: two runs of "the same suite" on different files differ here
            "cases_sha256": hashlib.sha256(
                "\n".join(f"{k}={v}" for k, v in sorted(s.case_hashes.items())).encode()
            ).hexdigest(),
            "gate": s.gate.model_dump() if s.gate else None,
            "perturb": list(s.perturb),
            # the cases' contents: shards merged must have run the same suite
            "sha256": hashlib.sha256(
                "\n".join(f"{k}={v}" for k, v in sorted(s.case_hashes.items())).encode()
            ).hexdigest(),
            "reducer": s.reducer,
            **({"sample": s.sample.as_json()} if s.sample else {}),
        }
        for s in suites
    ]


def open_run(options: EvalOptions) -> tuple[RunDir, dict[str, Any], RunConfig, Shard | None]:
    """The run folder, its run.json, config and shard: an existing run's, read back (and
    repaired after a crash), or a new run's (its folder is written once the run can start)."""
    config, existing_id, root = options.config, options.existing_id, options.root
    if existing_id:
        run = RunDir.existing(existing_id, root)
        meta = run.read_meta()
        config = with_options(config_from_meta(meta), options.secrets)
        run.repair()
        return run, meta, config, shard_of(meta)
    if config is None:
        raise ValueError("run_eval needs a config for a new run")
    run = RunDir(options.run_id or new_run_id(), root)
    meta = {
        "run_id": run.run_id,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "git": git_state(),
        "argv": options.argv or [],
        "config": config_meta(config),
        "suite_info": _suite_info(config.suites),
    }
    if options.shard is not None:
        meta["shard"] = options.shard.as_meta()
    meta.update(options.meta_extra or {})
    return run, meta, config, options.shard
