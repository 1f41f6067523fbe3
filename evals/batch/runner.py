"""`converse eval --batch`: a live Claude run whose calls go through Message Batches.

The run goes in steps. Each step first collects every outstanding batch of the run (polling
until it has ended), then runs a pass over the cases without a row (`evals.batch.guard`):
cases whose calls are all answered write their rows; the others each leave their next
request, and those requests are submitted as one batch per suite (split only past the API's
size limits). A classify case makes one call, so a classify suite is one batch and the second
pass writes every row. A conversation makes a call per step (the reading of turn 1, its reply,
the reading of turn 2, ...), each depending on the answers before it, so a conversation suite
is one batch per step across all its conversations.

Batch ids are written to the run folder (`evals.batch.folder`) the moment the API gives them,
and run.json says the run is a batch run, so `converse eval --resume RUN` from any process
polls the outstanding batches, collects them once, and goes on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from rich.console import Console

from evals.batch.folder import BatchFolder
from evals.batch.guard import BatchGuard, Pending
from evals.runner.engine import RunConfig
from evals.runner.options import EvalOptions
from evals.runner.results import RunDir, RunError, new_run_id
from evals.runner.run import RunOutcome, run_eval
from pipeline.providers.claude import BatchClient, BatchStatus, chunks, parse_prompts_header
from pipeline.redact import unredacted

DEFAULT_POLL_SECONDS = 60.0
# A conversation of T turns takes about 2T steps; past this many the run is not converging
# (a request that changes from pass to pass) and stops instead of submitting forever.
MAX_STEPS = 200
BATCH_META = "batch"
Sleep = Callable[[float], None]


def is_batch_run(meta: dict[str, Any]) -> bool:
    """Whether run.json says the run's calls go through batches."""
    return bool(meta.get(BATCH_META))


def _claude_options(config: RunConfig | None, run: RunDir | None) -> dict[str, str]:
    if config is not None:
        return dict(config.provider_options.get("claude", {}))
    assert run is not None
    options = run.read_meta()["config"].get("provider_options", {})
    return unredacted(options.get("claude", {}))  # a hidden key comes from the environment


class BatchSteps:
    """Submits a pass's requests and collects batches, saying what it does on the console."""

    def __init__(
        self, folder: BatchFolder, client: BatchClient, console: Console, poll: float, sleep: Sleep
    ) -> None:
        self.folder = folder
        self.client = client
        self.console = console
        self.poll = poll
        self.sleep = sleep
        self.polls = 0
        self.submitted = 0

    def submit(self, pending: dict[str, Pending], step: int) -> None:
        """One batch per suite (more only past the API's limits), each id kept at once."""
        by_suite: dict[str, list[Pending]] = {}
        for request in sorted(pending.values(), key=lambda p: (p.suite, p.custom_id)):
            by_suite.setdefault(request.suite, []).append(request)
        for suite, requests in by_suite.items():
            refs = {ref for r in requests for ref in parse_prompts_header(r.prompts).values()}
            for chunk in chunks([(r.custom_id, r.params) for r in requests]):
                status = self.client.submit(chunk, refs)
                self.folder.record_submission(status, suite, step, [cid for cid, _ in chunk])
                self.submitted += 1
                self.console.print(
                    f"batch {status.id}: {len(chunk)} request(s) of {suite}, step {step}",
                    highlight=False,
                )

    def collect(self) -> None:
        """Poll every outstanding batch until it has ended; keep its results."""
        for submission in self.folder.outstanding():
            batch_id = str(submission["id"])
            status = self._wait(batch_id, submission)
            count = self.folder.save_results(batch_id, self.client.results(batch_id))
            self.console.print(
                f"batch {batch_id}: collected {count} result(s) ({_counts(status)})",
                highlight=False,
            )

    def _wait(self, batch_id: str, submission: dict[str, Any]) -> BatchStatus:
        while True:
            status = self.client.status(batch_id)
            self.polls += 1
            if status.ended:
                return status
            done = status.total - status.processing
            self.console.print(
                f"batch {batch_id} ({submission.get('suite')}, step {submission.get('step')}): "
                f"{status.status}, {done}/{status.total} done; next poll in {self.poll:g} s",
                highlight=False,
            )
            self.sleep(self.poll)


def _counts(status: BatchStatus) -> str:
    return ", ".join(
        f"{n} {name}"
        for name, n in (
            ("succeeded", status.succeeded),
            ("errored", status.errored),
            ("canceled", status.canceled),
            ("expired", status.expired),
        )
        if n
    )


@dataclass(frozen=True)
class BatchOptions:
    """How a batch run reaches its batches and waits on them."""

    poll_seconds: float = DEFAULT_POLL_SECONDS
    client: BatchClient | None = None  # None: one from the Claude provider's options
    sleep: Sleep = time.sleep


# What each pass of a batch run sets itself, and what a batch run cannot honour: asked again at
# full price (`retry_errors`), priced call by call (`budget`). `converse eval` refuses the
# last two up front (evals/commands/batch_mode.py).
_NOT_FOR_BATCHES = ("middleware", "deferral", "meta_extra", "retry_errors", "budget")


def _refuse_unbatchable(options: EvalOptions) -> None:
    given = [name for name in _NOT_FOR_BATCHES if getattr(options, name)]
    if given:
        raise ValueError(
            f"a batch run cannot take {', '.join(given)}: it sets middleware, deferral and "
            "meta_extra itself and has no retry_errors or budget; leave them unset"
        )


def run_batch_eval(options: EvalOptions, batch: BatchOptions | None = None) -> RunOutcome:
    """Start a batch run from `options.config`, or continue the batch run `options.resume`;
    returns when every case has its row (the outcome of the last pass, whose rows are the
    whole run).

    Every pass after the first resumes from run.json, which hides keys: the options this
    process was given (the config's, or `secrets` on a resume) are handed to each pass again."""
    _refuse_unbatchable(options)
    batch = batch or BatchOptions()
    config, resume, root = options.config, options.resume, options.root
    given = options.secrets or (config.provider_options if config is not None else None)
    out = options.console or Console(stderr=True)
    existing = RunDir.existing(resume, root) if resume else None
    run_id = resume or options.run_id or new_run_id()
    folder = BatchFolder(existing.path if existing else RunDir(run_id, root).path)
    claude = _claude_options(config, existing) | dict((given or {}).get("claude", {}))
    batches = batch.client or BatchClient.from_options(**claude)
    steps = BatchSteps(folder, batches, out, batch.poll_seconds, batch.sleep)
    meta = {BATCH_META: {"poll_seconds": batch.poll_seconds}}
    first = existing is None
    step = folder.steps()
    try:
        while True:
            steps.collect()
            guard = BatchGuard(folder.answers())
            outcome = run_eval(
                replace(
                    options,
                    config=config if first else None,
                    resume=None if first else run_id,
                    run_id=run_id,
                    console=out,
                    shard=options.shard if first else None,
                    middleware=[guard],
                    deferral=guard,
                    meta_extra=meta,
                    secrets=given,
                )
            )
            first = False
            if not guard.pending:
                return outcome
            step += 1
            if step > MAX_STEPS:
                raise RunError(
                    f"the batch run {run_id} has taken {MAX_STEPS} steps and still asks for "
                    f"{len(guard.pending)} answers: its requests change from pass to pass",
                    f"run it without --batch, or look at batches.jsonl in {folder.path}",
                )
            steps.submit(guard.pending, step)
    finally:
        if batch.client is None:
            batches.close()
