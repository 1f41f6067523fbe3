"""`converse eval --batch`: whether a run goes through Message Batches, checked up front."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from pipeline.errors import ConverseError

if TYPE_CHECKING:
    from evals.runner.engine import RunConfig
    from evals.runner.options import EvalOptions
    from evals.runner.run import RunOutcome


def _stored_batch_run(run_id: str) -> bool:
    from evals.batch import is_batch_run
    from evals.runner.results import RunDir

    return is_batch_run(RunDir.existing(run_id).read_meta())


def batch_mode(
    batch: bool,
    config: RunConfig | None,
    *,
    resume: str | None,
    retry_errors: str | None,
    max_cost: float | None,
) -> bool:
    """Whether this invocation runs through batches: `--batch` on a new live Claude run, or a
    resumed run that started as one. Combinations that cannot work fail before anything runs."""
    if retry_errors is not None:
        if batch or _stored_batch_run(retry_errors):
            raise ConverseError(
                "--retry-errors would ask a batch run's errored cases again at full price, "
                "one call at a time",
                "start a new run with --batch for them, or drop --batch",
            )
        return False
    if resume is not None:
        batched = _stored_batch_run(resume)
        if batch and not batched:
            raise ConverseError(
                f"run {resume} did not start with --batch; a resumed run keeps its own mode",
                f"drop --batch: converse eval --resume {resume}",
            )
        batch = batched
    elif batch and config is not None and (config.replay or config.cassette is not None):
        raise ConverseError(
            "--batch sends live Claude calls through Message Batches, and this run replays "
            "cassettes",
            "run with --provider claude --live and ANTHROPIC_API_KEY set",
        )
    elif batch and config is not None and "claude" not in config.providers:
        raise ConverseError(
            "--batch sends live Claude calls through Message Batches, and this run makes none",
            "add --provider claude --live, or drop --batch",
        )
    if batch and max_cost is not None:
        raise ConverseError(
            "--max-cost prices each call before it is sent, and a batch sends none one by one",
            "drop --max-cost; a batch costs half of the same calls (docs/evals.md, Message "
            "Batches)",
        )
    return batch


def batch_runner(poll_seconds: float | None) -> Callable[[EvalOptions], RunOutcome]:
    """`run_eval`'s stand-in for a batch run: the same options (`batch_mode` has refused a
    spending bound and a retry of errors)."""
    from evals.batch import DEFAULT_POLL_SECONDS, BatchOptions, run_batch_eval

    poll = DEFAULT_POLL_SECONDS if poll_seconds is None else poll_seconds
    return lambda options: run_batch_eval(options, BatchOptions(poll_seconds=poll))
