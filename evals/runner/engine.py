"""`converse eval`'s engine: plan the work, run it concurrently, append a row per case."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from evals.dataset.cases import Case
from evals.dataset.load import Suite, case_hash
from evals.runner.cache import ResultCache, cache_key
from evals.runner.gold import GOLD, GOLD_TARGETS
from evals.runner.outcome import Outcome
from evals.runner.perturbed import perturbed_items
from evals.runner.providers import DETERMINISTIC, Bound, ProviderPool, prompt_hashes, variant_label
from evals.runner.results import OnRow, RunDir
from evals.runner.rows import build_row
from evals.runner.sandbox import Sandbox
from evals.runner.targets import run_case

if TYPE_CHECKING:
    from pipeline.providers.claude import Budget
from evals.targets import TARGET_SPECS, spec_of, targets_where
from pipeline.prompting import default_library

# Read from the targets' specs (evals/targets.py): the targets that run on every provider,
# and those whose answers are cached.
MODEL_TARGETS = frozenset(t for t, s in TARGET_SPECS.items() if s.runs_on == "providers")
CACHED_TARGETS = frozenset(targets_where("cached"))
Key = tuple[str, str, str, str, int, str]


@dataclass(frozen=True)
class WorkItem:
    """One case to run on one provider, prompt variant and epoch."""

    suite: Suite
    case: Case
    provider: str
    variant: dict[str, str]
    epoch: int
    # the perturbation that rewrote `case` ("" for the case as written)
    perturbation: str = ""

    @property
    def key(self) -> Key:
        """Same shape as results.row_key."""
        return (
            self.suite.name,
            self.case.id,
            self.provider,
            variant_label(self.variant),
            self.epoch,
            self.perturbation,
        )

    @property
    def case_hash(self) -> str:
        """The content hash of the case as run (a perturbed case is another input)."""
        if not self.perturbation:
            return self.suite.case_hashes[self.case.id]
        return case_hash(self.suite.target, self.case)


@dataclass(frozen=True)
class RunConfig:
    """What a run covers and how it runs."""

    suites: list[Suite]
    providers: list[str]
    variants: list[dict[str, str]] = field(default_factory=lambda: [{}])
    epochs: int = 1
    concurrency: int = 4
    use_cache: bool = True
    script: Path | None = None
    provider_options: dict[str, dict[str, str]] = field(default_factory=dict)
    cassette: Path | None = None
    # Claude replays each suite's recorded cassette (`converse record`) instead of the API.
    replay: bool = False
    # perturbation names (docs/evals.md, "Robustness"); None: each suite's own `perturb:`
    perturb: tuple[str, ...] | None = None
    perturb_seed: int = 0
    # `--sample N --seed S`: each suite is a tag-stratified sample of N cases (suites carry it)
    sample: int | None = None
    seed: int = 0
    # "provider": each provider reads the messages; "gold": the suites' gold readings do
    # (evals/runner/gold.py), and `providers` is ["gold"]
    reading: str = "provider"


def plan(
    config: RunConfig,
    lends_embedder: Callable[[str], bool] | None = None,
    lends_generator: Callable[[str], bool] | None = None,
) -> list[WorkItem]:
    """Every (suite, provider, variant, epoch, case).

    Model targets run on every provider, variant and epoch. memory_block runs once, on the
    pipeline; forget_match runs on the pipeline (keywords) and on each provider that lends an
    embedding model (`lends_embedder`), since that changes what the handler matches. closure
    runs once on the pipeline (the deterministic fallbacks: the baseline row) and on each
    provider that lends a structured generator (`lends_generator`), on every variant and epoch.
    Perturbed copies of the items follow, one per perturbation that changes a case.
    """
    items: list[WorkItem] = []
    for suite in config.suites:
        runs_on = spec_of(suite.target).runs_on
        if runs_on == "providers":
            providers, variants, epochs = config.providers, config.variants, config.epochs
        elif runs_on == "pipeline+generators":
            models = [p for p in config.providers if lends_generator and lends_generator(p)]
            items.extend(_baseline_items(suite))
            for provider in models:
                for variant in config.variants:
                    for epoch in range(config.epochs):
                        items.extend(
                            WorkItem(suite, case, provider, variant, epoch) for case in suite.cases
                        )
            continue
        else:
            providers, variants, epochs = [DETERMINISTIC], [{}], 1
            if runs_on == "pipeline+embedders" and lends_embedder is not None:
                providers += [p for p in config.providers if lends_embedder(p)]
        for provider in providers:
            for variant in variants:
                for epoch in range(epochs):
                    items.extend(
                        WorkItem(suite, case, provider, variant, epoch) for case in suite.cases
                    )
    if config.reading == GOLD:  # only readings are replayed: no other target, no rewriting
        return [i for i in items if i.suite.target in GOLD_TARGETS]
    return items + perturbed_items(items, config)


def _baseline_items(suite: Suite) -> list[WorkItem]:
    return [WorkItem(suite, case, DETERMINISTIC, {}, 0) for case in suite.cases]


@dataclass
class Tally:
    """Counts shown while a run goes."""

    passed: int = 0
    failed: int = 0
    errors: int = 0
    cached: int = 0

    def add(self, row: dict[str, Any]) -> None:
        """Count one finished row."""
        status = row["status"]
        self.passed += status == "pass"
        self.failed += status == "fail"
        self.errors += status == "error"
        self.cached += bool(row.get("cached"))

    def plus(self, other: Tally) -> Tally:
        """Both tallies together."""
        return Tally(
            self.passed + other.passed,
            self.failed + other.failed,
            self.errors + other.errors,
            self.cached + other.cached,
        )

    def text(self) -> str:
        """For the progress bar."""
        return (
            f"[green]{self.passed} pass[/] [red]{self.failed} fail[/] "
            f"[yellow]{self.errors} error[/]"
        )


class Deferral(Protocol):
    """Holds back cases whose model answers are not in yet (a batch run, evals/batch)."""

    def start_item(self, key: Key) -> None:
        """A case begins on this thread."""

    def held_here(self) -> bool:
        """Whether this thread's case waits on an answer: no row, nothing cached."""

    def finish_row(self, row: dict[str, Any]) -> None:
        """Adjust the row of a case that was not held before it is written."""


class Executor:
    """Runs work items; each finished item's row is appended to the run before the next."""

    def __init__(
        self,
        run: RunDir,
        pool: ProviderPool,
        cache: ResultCache | None,
        on_row: OnRow | None = None,
        sandbox: Sandbox | None = None,
        budget: Budget | None = None,
        deferral: Deferral | None = None,
    ) -> None:
        self.run = run
        self.budget = budget
        self.deferral = deferral
        self.pool = pool
        self.cache = cache
        self.sandbox = sandbox or Sandbox()
        self.on_row = on_row
        self._hashes: dict[tuple[str, str, str], dict[str, str]] = {}
        self._hash_lock = threading.Lock()

    def _prompts(self, bound: Bound, target: str) -> dict[str, str]:
        key = (bound.name, variant_label(bound.variant), target)
        with self._hash_lock:
            if key not in self._hashes:
                self._hashes[key] = prompt_hashes(target, bound.library)
            return self._hashes[key]

    def one(self, item: WorkItem) -> dict[str, Any] | None:
        """Run, score and record one item; exceptions become error rows. None, and no row, when
        the spending bound refused one of the item's calls: `--resume` runs it again."""
        bound: Bound | None = None
        if self.budget is not None:
            self.budget.start_item()
        if self.deferral is not None:
            self.deferral.start_item(item.key)
        try:
            bound = self.pool.get(item.provider, item.variant)
            outcome, cached = self._outcome(item, bound)
        except Exception as exc:  # an exception is an error result, never a crash of the run
            outcome, cached = Outcome(got={}, error=f"{type(exc).__name__}: {exc}"), False
        if self.budget is not None and self.budget.refused_here():
            return None
        if self.deferral is not None and self.deferral.held_here():
            return None
        if bound is None:
            bound = Bound(
                item.provider, item.provider, "", "", None, None, default_library(item.variant)
            )
        row = build_row(self.run.run_id, item, bound, outcome, cached)
        if self.deferral is not None:
            self.deferral.finish_row(row)
        text = self.run.append(row)
        if self.on_row is not None:
            self.on_row(row, text)
        return row

    def _outcome(self, item: WorkItem, bound: Bound) -> tuple[Outcome, bool]:
        use_cache = self.cache is not None and item.suite.target in CACHED_TARGETS
        key = ""
        if use_cache:
            assert self.cache is not None
            key = cache_key(
                case_hash=item.case_hash,
                provider=bound.name,
                model=bound.model,
                fingerprint=bound.fingerprint,
                prompts=self._prompts(bound, item.suite.target),
                epoch=item.epoch,
            )
            hit = self.cache.get(key)
            if hit is not None:
                return hit, True
        outcome = run_case(item.suite.target, item.case, bound, self.sandbox)
        if use_cache and not (self.deferral is not None and self.deferral.held_here()):
            assert self.cache is not None
            self.cache.put(key, outcome)
        return outcome, False

    def close(self) -> None:
        """Release the sandbox and flush the run."""
        self.sandbox.close()
        self.run.close()


@contextmanager
def _progress(total: int, enabled: bool, console: Console) -> Iterator[Callable[[Tally], None]]:
    if not enabled or total == 0:
        yield lambda _tally: None
        return
    columns = (
        TextColumn("[bold]converse eval[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("", total=total)

        def advance(tally: Tally) -> None:
            progress.update(task, advance=1, description=tally.text())

        yield advance


def execute(
    items: list[WorkItem],
    executor: Executor,
    concurrency: int,
    *,
    progress: bool = True,
    console: Console | None = None,
) -> Tally:
    """Run the items with up to `concurrency` threads; Ctrl-C stops after in-flight cases."""
    tally = Tally()
    out = console or Console(stderr=True)
    with _progress(len(items), progress, out) as advance:
        pool = ThreadPoolExecutor(max_workers=max(1, concurrency), thread_name_prefix="eval")
        pending: set[Future[dict[str, Any] | None]] = set()
        queue = iter(items)
        budget = executor.budget
        try:
            # Submit a bounded window so a Ctrl-C leaves little queued work to cancel.
            for item in queue:
                pending.add(pool.submit(executor.one, item))
                if len(pending) >= concurrency * 4:
                    break
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    row = future.result()
                    if row is not None:
                        tally.add(row)
                        advance(tally)
                if budget is not None and budget.stopped:
                    continue  # the bound is reached: finish what is in flight, start nothing
                for item in queue:
                    pending.add(pool.submit(executor.one, item))
                    if len(pending) >= concurrency * 4:
                        break
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
    return tally
