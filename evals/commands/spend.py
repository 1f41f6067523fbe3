"""`converse eval --max-cost`: the spending bound of a run, and what it says when it stops one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.cli.common import shown
from pipeline.errors import ConverseError

if TYPE_CHECKING:
    from evals.runner.engine import RunConfig
    from evals.runner.run import RunOutcome
    from pipeline.providers.claude import Budget

ESTIMATES = ("count_tokens", "characters")


def make_budget(max_cost: float | None, estimate: str, config: RunConfig | None) -> Budget | None:
    """The bound for this invocation (None without --max-cost); bad settings fail up front.

    A resumed run (`config` None) gets a fresh bound: it counts what this invocation spends."""
    if max_cost is None:
        return None
    if estimate not in ESTIMATES:
        raise ConverseError(
            f"--cost-estimate must be one of {', '.join(ESTIMATES)}, not {estimate!r}",
            "use count_tokens (asks the API) or characters (four a token)",
        )
    if config is not None and config.cassette is not None:
        raise ConverseError(
            "--max-cost bounds live Claude calls, and --cassette replays them (they cost nothing)",
            "drop --max-cost, or drop --cassette and run with --live",
        )
    if config is not None and (config.replay or "claude" not in config.providers):
        raise ConverseError(
            "--max-cost bounds live Claude calls, and this run makes none",
            "drop --max-cost, or run with --provider claude --live",
        )
    from pipeline.providers.claude import Budget

    return Budget(max_cost, estimate="count_tokens" if estimate == "count_tokens" else "characters")


def announce_budget_stop(outcome: RunOutcome) -> None:
    """Say that the bound stopped the run, what was spent, and how to continue."""
    from evals.commands.common import stderr
    from pipeline.providers.claude import dollars

    account = outcome.budget or {}
    left = len(outcome.rows)
    stderr().print(
        f"stopped before the budget of {dollars(float(account.get('max_cost_usd', 0)))} would be "
        f"exceeded ({dollars(float(account.get('spent_usd', 0)))} spent by "
        f"{account.get('calls', 0)} calls; "
        f"{left} rows kept). Continue: converse eval --resume {shown(outcome.run.run_id)} "
        "--max-cost USD",
        highlight=False,
        soft_wrap=True,
    )
