"""Message Batches through the SDK, on synthetic cassettes: a batch run of a classify suite is
submitted, polled and collected, and its rows are scored from the results file.

Replay (the default, and CI) needs no key and no network. Recording (`pytest
tests/claude/test_batches_synthetic.py --record-mode=rewrite`): the loopback server's batch
endpoints answer from fixtures/cassettes/synthetic/answers.yaml, each batch reported in
progress twice before it ends; the cassettes are stamped synthetic."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from evals.batch import BatchOptions, run_batch_eval
from evals.cassettes import rerecord_test, stamp, synthetic_answers
from evals.cassettes.session import REPLAY_BASE_URL, SYNTHETIC_KEY
from evals.dataset.load import load_suite
from evals.loopback import LoopbackServer, load_answers
from evals.runner import EvalOptions, RunConfig
from pipeline.providers.claude.batches import BatchClient

pytestmark = [pytest.mark.vcr, pytest.mark.block_network]

SUITE = """name: batched_specification
target: classify
description: the specification's classifications, through one batch
cases:
  - {id: shellfish, message: "I'm allergic to shellfish", project: Weeknight cooking,
     expect: {intent: remember_about_me, params: {personal_fact: {contains: [shellfish]}}}}
  - {id: birthday, message: "My birthday is March 15th",
     expect: {intent: remember_about_me, params: {personal_fact: {contains: [march 15]}}}}
  - {id: miami, message: "Forget that I live in Miami",
     expect: {intent: forget_about_me, params: {forget_description: {contains: [miami]}}}}
"""


@pytest.fixture
def base_url(request: pytest.FixtureRequest, vcr: Any) -> Iterator[str]:
    """The loopback server's URL while recording, else the replay host; stamps the cassette."""
    mode = getattr(vcr.record_mode, "value", vcr.record_mode)
    if mode == "none":
        yield REPLAY_BASE_URL
        return
    with LoopbackServer(load_answers(synthetic_answers()), batch_polls=2) as server:
        yield server.url
    stamp(vcr, synthetic=True, rerecord=rerecord_test(request.node.nodeid))


def test_synthetic_batch_of_a_classify_suite_is_submitted_polled_and_collected(
    tmp_path: Path, base_url: str
) -> None:
    suite = tmp_path / "batched.yaml"
    suite.write_text(SUITE, encoding="utf-8")
    options = {"api_key": SYNTHETIC_KEY, "base_url": base_url}
    config = RunConfig(
        suites=[load_suite(suite)],
        providers=["claude"],
        use_cache=False,
        provider_options={"claude": options},
    )
    client = BatchClient.from_options(**options)
    with open(os.devnull, "w") as quiet:
        outcome = run_batch_eval(
            EvalOptions(config, root=tmp_path, progress=False, console=Console(file=quiet)),
            BatchOptions(poll_seconds=0, client=client),
        )
    rows = sorted(outcome.rows, key=lambda r: r["case_id"])
    assert [(r["case_id"], r["status"]) for r in rows] == [
        ("birthday", "pass"),
        ("miami", "pass"),
        ("shellfish", "pass"),
    ]
    assert all(r["model"] == "synthetic-fixture" and r["batch"] for r in rows)
    assert all(r["tokens"]["input"] > 0 and r["tokens"]["output"] > 0 for r in rows)
