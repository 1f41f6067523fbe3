"""The runner and the batch runner take one options object (`EvalOptions`)."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from evals.batch import BatchOptions, run_batch_eval
from evals.runner import EvalOptions, run_eval
from evals.runner.engine import RunConfig


def test_both_runners_take_the_one_options_object() -> None:
    assert list(inspect.signature(run_eval).parameters) == ["options"]
    batch = inspect.signature(run_batch_eval).parameters
    assert list(batch) == ["options", "batch"]
    assert batch["options"].annotation == "EvalOptions"


def test_options_are_frozen_and_name_the_run_they_continue() -> None:
    options = EvalOptions(RunConfig([], ["scripted"]), progress=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.progress = True  # type: ignore[misc]
    assert options.existing_id is None
    assert EvalOptions(resume="r1").existing_id == "r1"
    assert EvalOptions(retry_errors="r2").existing_id == "r2"
    with pytest.raises(TypeError):
        EvalOptions(None, "r1")  # type: ignore[call-arg]  # only the config goes by position


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ({"retry_errors": "r1"}, "retry_errors"),
        ({"budget": object()}, "budget"),
        ({"middleware": [object()], "meta_extra": {"x": 1}}, "middleware, meta_extra"),
    ],
)
def test_a_batch_run_refuses_what_it_cannot_honour_before_anything_runs(
    given: dict[str, object], named: str
) -> None:
    options = EvalOptions(None, progress=False, **given)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=f"^a batch run cannot take {named}: "):
        run_batch_eval(options, BatchOptions(poll_seconds=0))
