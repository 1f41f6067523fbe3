"""Claude providers bound to one cassette: replaying it, or recording it (loopback or real API).

Replay needs no key and no network: the base URL is a name that cannot resolve and retries are
off, so a recorded 429 is answered at once and a miss is a StaleCassette, never a request.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from evals.cassettes.config import configure, vcr_config
from evals.cassettes.provenance import stamp
from evals.cassettes.retry import RecordingRetries, discard_last
from evals.cassettes.stale import CassetteMisses
from evals.loopback import LoopbackServer, load_answers
from pipeline.errors import ConverseError
from pipeline.prompting import PromptLibrary
from pipeline.providers import Providers
from pipeline.providers.claude import claude_providers

REPLAY_BASE_URL = "http://replay.invalid"
# Sent only to the loopback server and dropped from every cassette; not a credential.
SYNTHETIC_KEY = "synthetic-loopback-no-key"

Mode = Literal["replay", "record"]


@dataclass(frozen=True)
class CassetteSession:
    """Providers bound to a cassette, and the loopback server when recording synthetic ones."""

    providers: Providers
    cassette: Any
    server: LoopbackServer | None
    retries: RecordingRetries | None = None


def require_vcr() -> Any:
    """The vcr module, or an error that says how to install it."""
    try:
        import vcr
    except ImportError as exc:  # vcrpy is a dev dependency
        raise ConverseError(
            "cassettes need vcrpy (≥ 8.2.1, which patches httpx2)",
            "pip install 'converse-harness[dev]'",
        ) from exc
    return vcr


@contextmanager
def cassette_claude(
    path: Path,
    *,
    mode: Mode,
    rerecord: str,
    answers: Path | None = None,
    library: PromptLibrary | None = None,
    overrides: Mapping[str, str] | None = None,
    **options: Any,
) -> Iterator[CassetteSession]:
    """Claude providers whose calls go through the cassette at `path`.

    mode "replay": record mode none. mode "record": the cassette is written afresh, from the
    loopback server answering from `answers` (a synthetic cassette) or, without `answers`, from
    the API at ANTHROPIC_BASE_URL with ANTHROPIC_API_KEY (a real one). When recording, the SDK's
    retries are off and `RecordingRetries` retries instead, keeping only each call's final
    exchange in the cassette.
    """
    vcr = require_vcr()
    with ExitStack() as stack:
        server: LoopbackServer | None = None
        settings: dict[str, Any] = dict(options)
        if mode == "replay":
            settings |= {"base_url": REPLAY_BASE_URL, "api_key": SYNTHETIC_KEY, "max_retries": 0}
        elif answers is not None:
            server = stack.enter_context(LoopbackServer(load_answers(answers)))
            settings |= {"base_url": server.url, "api_key": SYNTHETIC_KEY, "max_retries": 0}
        if mode == "record":
            path.unlink(missing_ok=True)
            settings["max_retries"] = 0  # retried below, so a failure never reaches the file
        recorder = configure(vcr.VCR(**vcr_config()))
        cassette = stack.enter_context(
            recorder.use_cassette(str(path), record_mode="none" if mode == "replay" else "all")
        )
        retries = RecordingRetries(discard=discard_last(cassette)) if mode == "record" else None
        middleware: list[Any] = [CassetteMisses(rerecord)]
        if retries is not None:
            middleware.append(retries)
        providers = claude_providers(library=library, middleware=middleware, **settings)
        yield CassetteSession(providers, cassette, server, retries)
        if mode == "record":
            stamp(cassette, synthetic=answers is not None, rerecord=rerecord, overrides=overrides)
