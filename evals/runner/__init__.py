"""The runner: suites x providers x prompt versions x epochs, rows appended as cases finish.

Each name is imported from its module on first use, so a module below (results, meta) is
imported without the runner's whole stack: a command's --help needs only its options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

if TYPE_CHECKING:
    from evals.runner.engine import RunConfig, WorkItem, plan
    from evals.runner.junit import write_junit
    from evals.runner.options import EvalOptions
    from evals.runner.providers import (
        DETERMINISTIC,
        DETERMINISTIC_LABEL,
        ProviderPool,
        parse_prompt_options,
        parse_provider_options,
        variant_label,
    )
    from evals.runner.results import RunDir, RunError, read_rows, reports_dir
    from evals.runner.run import RunOutcome, run_eval
    from evals.runner.run_meta import gates_of
    from evals.runner.summary import GroupResult, result_object, summarize

_HOMES = {
    "RunConfig": ".engine",
    "WorkItem": ".engine",
    "plan": ".engine",
    "write_junit": ".junit",
    "EvalOptions": ".options",
    "DETERMINISTIC": ".providers",
    "DETERMINISTIC_LABEL": ".providers",
    "ProviderPool": ".providers",
    "parse_prompt_options": ".providers",
    "parse_provider_options": ".providers",
    "variant_label": ".providers",
    "RunDir": ".results",
    "RunError": ".results",
    "read_rows": ".results",
    "reports_dir": ".results",
    "RunOutcome": ".run",
    "run_eval": ".run",
    "gates_of": ".run_meta",
    "GroupResult": ".summary",
    "result_object": ".summary",
    "summarize": ".summary",
}
__all__ = [
    "DETERMINISTIC",
    "DETERMINISTIC_LABEL",
    "EvalOptions",
    "GroupResult",
    "ProviderPool",
    "RunConfig",
    "RunDir",
    "RunError",
    "RunOutcome",
    "WorkItem",
    "gates_of",
    "parse_prompt_options",
    "parse_provider_options",
    "plan",
    "read_rows",
    "reports_dir",
    "result_object",
    "run_eval",
    "summarize",
    "variant_label",
    "write_junit",
]

__getattr__ = lazy_exports(__name__, _HOMES)
