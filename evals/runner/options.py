"""How a run is started and carried out: the one options object `run_eval` and
`run_batch_eval` take, so their callers and the run folder read the same names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evals.runner.providers import Registry
from pipeline.providers import REGISTRY

if TYPE_CHECKING:
    from rich.console import Console

    from evals.runner.engine import Deferral, RunConfig
    from evals.runner.results import OnRow
    from evals.runner.shards import Shard
    from pipeline.providers.claude import Budget


@dataclass(frozen=True)
class EvalOptions:
    """A run to start from `config`, or the run named by `resume` / `retry_errors` to continue.

    `middleware` goes to the SDK clients of providers on the Anthropic wire, outside the
    spending bound's (`budget`); `deferral` may hold cases back (no row) and adjust rows before
    they are written; `meta_extra` is added to a new run's run.json (a batch run says so
    there); `secrets` are provider options a resumed run cannot read back, run.json having
    hidden them (keys, passwords: pipeline/redact.py), given again."""

    config: RunConfig | None = None
    _: KW_ONLY
    resume: str | None = None
    retry_errors: str | None = None
    run_id: str | None = None
    root: Path | None = None
    progress: bool = True
    console: Console | None = None
    # the shared table itself: a dataclass refuses a dict as a plain default
    registry: Registry = field(default_factory=lambda: REGISTRY)
    argv: list[str] | None = None
    on_row: OnRow | None = None
    budget: Budget | None = None
    shard: Shard | None = None
    middleware: Sequence[Any] = ()
    deferral: Deferral | None = None
    meta_extra: dict[str, Any] | None = None
    secrets: dict[str, dict[str, str]] | None = None

    @property
    def existing_id(self) -> str | None:
        """The run this continues (resumed or retried), None for a new run."""
        return self.resume or self.retry_errors
