"""How cassettes are recorded and matched: VCR settings shared by tests and `converse record`.

Matching ignores host and port, so a cassette recorded against the loopback server replays for
a client pointed at the real API and the other way round; it compares the body, so a changed
prompt misses. Headers are kept by allowlist: nothing that names a key, an account or an
organisation reaches a file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pipeline.config import fixtures_dir
from pipeline.providers.claude import PROMPTS_HEADER

MATCH_ON = ("method", "path", "query", "body")
# Request headers worth reading in review; everything else (x-api-key, authorization, the SDK's
# platform headers) is dropped before a request is written.
REQUEST_HEADERS = ("content-type", "anthropic-version", "anthropic-beta", PROMPTS_HEADER)
# Response headers the SDK acts on. request-id and anthropic-organization-id are dropped: they
# tie a recording to an account.
RESPONSE_HEADERS = ("content-type", "retry-after", "retry-after-ms", "x-should-retry")

# Where cassettes recorded from the loopback server live; the folder name says what they are.
SYNTHETIC = "synthetic"
REAL = "real"


def cassettes_dir() -> Path:
    """The root of the committed cassettes."""
    return fixtures_dir() / "cassettes"


# Recordings from the loopback server name it by this host instead of 127.0.0.1:<random port>,
# so re-recording does not churn every file (the host is not matched on anyway).
LOOPBACK_HOST = "synthetic-loopback"
_LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


def synthetic_answers() -> Path:
    """What the loopback server answers when the synthetic test cassettes are recorded."""
    return cassettes_dir() / SYNTHETIC / "answers.yaml"


def scrub_request(request: Any) -> Any:
    """Keep only the allowlisted request headers; name a loopback host as such."""
    parts = urlsplit(request.uri)
    if parts.hostname in _LOOPBACK_NAMES:
        request.uri = urlunsplit(parts._replace(netloc=LOOPBACK_HOST))
    kept = {k: v for k, v in request.headers.items() if k.lower() in REQUEST_HEADERS}
    request.headers.clear()
    request.headers.update(kept)
    return request


def scrub_response(response: dict[str, Any]) -> dict[str, Any]:
    """Keep only the allowlisted response headers."""
    headers = response.get("headers") or {}
    response["headers"] = {k: v for k, v in headers.items() if k.lower() in RESPONSE_HEADERS}
    return response


def configure(recorder: Any) -> Any:
    """Give a `vcr.VCR` the harness's cassette format (registered under the name "yaml")."""
    from evals.cassettes import serializer

    recorder.register_serializer("yaml", serializer)
    return recorder


def vcr_config() -> dict[str, Any]:
    """Keyword arguments for `vcr.VCR(...)` and pytest-recording's `vcr_config` fixture."""
    return {
        "match_on": MATCH_ON,
        "filter_headers": ["x-api-key", "authorization"],  # the allowlist drops them too
        "before_record_request": scrub_request,
        "before_record_response": scrub_response,
        "decode_compressed_response": True,
        "record_on_exception": False,
    }
