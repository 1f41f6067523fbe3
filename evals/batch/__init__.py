"""Live Claude runs through the Message Batches API (`converse eval --batch`)."""

from evals.batch.folder import BatchFolder
from evals.batch.guard import BatchGuard, BatchPending, custom_id
from evals.batch.runner import DEFAULT_POLL_SECONDS, BatchOptions, is_batch_run, run_batch_eval

__all__ = [
    "DEFAULT_POLL_SECONDS",
    "BatchFolder",
    "BatchGuard",
    "BatchOptions",
    "BatchPending",
    "custom_id",
    "is_batch_run",
    "run_batch_eval",
]
