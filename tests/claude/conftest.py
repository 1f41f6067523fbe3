"""Claude providers on synthetic cassettes: replayed by default, recorded with --record-mode.

Replay (the default, and CI): no key, no network; calls are answered from
fixtures/cassettes/synthetic/<module>/<test>.yaml. Recording (`pytest tests/claude
--record-mode=rewrite`): the loopback server answers from fixtures/cassettes/synthetic/answers.yaml
through the real SDK, and each cassette is stamped with the prompts it used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from evals.cassettes import (
    SYNTHETIC,
    CassetteMisses,
    cassettes_dir,
    configure,
    rerecord_test,
    stamp,
    synthetic_answers,
)
from evals.cassettes import vcr_config as cassette_settings
from evals.cassettes.session import REPLAY_BASE_URL, SYNTHETIC_KEY
from evals.loopback import LoopbackServer, load_answers
from pipeline.prompting import PromptLibrary
from pipeline.providers.claude import claude_providers
from pipeline.providers.registry import Providers

SYNTHETIC_DIR = cassettes_dir() / SYNTHETIC
ANSWERS = synthetic_answers()


@pytest.fixture(scope="module")
def vcr_cassette_dir(request: pytest.FixtureRequest) -> str:
    """One folder per test module, under the synthetic cassettes."""
    return str(SYNTHETIC_DIR / Path(str(request.node.fspath)).stem)


@pytest.fixture
def vcr_config() -> dict[str, Any]:
    """Matching on method, path, query and body; headers kept by allowlist; bodies decoded."""
    return cassette_settings()


def _recording(cassette: Any) -> bool:
    mode = getattr(cassette.record_mode, "value", cassette.record_mode)
    return mode != "none"


@pytest.fixture
def claude(request: pytest.FixtureRequest, vcr: Any) -> Iterator[Callable[..., Providers]]:
    """Build Claude providers bound to this test's synthetic cassette.

    Call it (optionally with `library=` or settings) to get Providers. When the cassette is being
    recorded, a loopback server answers; afterwards the cassette is stamped with the prompts it
    used and the test fails if any request had no scripted answer.
    """
    assert vcr is not None, "mark the test with @pytest.mark.vcr"
    rerecord = rerecord_test(request.node.nodeid)
    recording = _recording(vcr)
    server = LoopbackServer(load_answers(ANSWERS)).start() if recording else None
    overrides: dict[str, str] = {}  # families a test asked for at a non-active version

    def make(library: PromptLibrary | None = None, **options: Any) -> Providers:
        if library is not None:
            overrides.update(library.overrides)
        settings: dict[str, Any] = {
            "api_key": SYNTHETIC_KEY,
            "base_url": server.url if server else REPLAY_BASE_URL,
            "max_retries": 0,
        }
        return claude_providers(
            library=library, middleware=[CassetteMisses(rerecord)], **(settings | options)
        )

    try:
        yield make
    finally:
        if server is not None:
            server.close()
    if server is not None:
        stamp(vcr, synthetic=True, rerecord=rerecord, overrides=overrides)
        assert not server.unmatched, f"no scripted answer in {ANSWERS} for {server.unmatched}"


def pytest_recording_configure(config: pytest.Config, vcr: Any) -> None:
    """The harness's cassette format: JSON bodies stored as readable YAML."""
    configure(vcr)
