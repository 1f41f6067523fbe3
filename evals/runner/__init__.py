"""The runner: suites x providers x prompt versions x epochs, rows appended as cases finish."""

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
