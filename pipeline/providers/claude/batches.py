"""Message Batches through the official SDK: many Messages requests submitted at once, polled,
and their results read back (half the price of the same calls, within 24 hours).

A request is `(custom_id, params)`, params being the body a Messages call would send. A batch
holds at most `MAX_REQUESTS` requests and `MAX_BYTES` of JSON (the API's limits), so `chunks`
splits a larger set. Results are returned as plain dictionaries, exactly the JSON the API sent,
so the caller can hand a message body to the same parser a direct call goes through.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

import anthropic

from pipeline.domain import PromptRef
from pipeline.providers.claude.settings import ClaudeSettings
from pipeline.providers.claude.wire import prompts_header

MAX_REQUESTS = 100_000
# The API takes up to 256 MB a batch; keep a margin for the envelope.
MAX_BYTES = 200 * 1024 * 1024

Request = tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class BatchStatus:
    """A batch as the API reports it while it runs and once it has ended."""

    id: str
    status: str  # in_progress | canceling | ended
    processing: int = 0
    succeeded: int = 0
    errored: int = 0
    canceled: int = 0
    expired: int = 0

    @property
    def ended(self) -> bool:
        """Whether every request has an outcome (and the results can be read)."""
        return self.status == "ended"

    @property
    def total(self) -> int:
        """Requests in the batch."""
        return self.processing + self.succeeded + self.errored + self.canceled + self.expired

    def text(self) -> str:
        """One line for a progress display."""
        counts = ", ".join(
            f"{n} {name}"
            for name, n in (
                ("processing", self.processing),
                ("succeeded", self.succeeded),
                ("errored", self.errored),
                ("canceled", self.canceled),
                ("expired", self.expired),
            )
            if n
        )
        return f"{self.id}: {self.status} ({counts or 'empty'})"


@dataclass(frozen=True)
class BatchResult:
    """One request's outcome: `succeeded` with the message body, `errored` with the error, or
    `canceled` / `expired` (never processed)."""

    custom_id: str
    kind: str
    message: dict[str, Any] | None = None
    error: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        """For storing."""
        return {
            "custom_id": self.custom_id,
            "kind": self.kind,
            "message": self.message,
            "error": self.error,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BatchResult:
        """From `as_dict`."""
        message, error = data.get("message"), data.get("error")
        return cls(str(data["custom_id"]), str(data["kind"]), message, error)


def chunks(requests: Sequence[Request]) -> list[list[Request]]:
    """The requests in order, cut into batches within the API's count and size limits."""
    out: list[list[Request]] = []
    current: list[Request] = []
    size = 0
    for request in requests:
        bytes_ = len(json.dumps(request[1], ensure_ascii=False).encode()) + len(request[0]) + 32
        if current and (len(current) >= MAX_REQUESTS or size + bytes_ > MAX_BYTES):
            out.append(current)
            current, size = [], 0
        current.append(request)
        size += bytes_
    if current:
        out.append(current)
    return out


def _status(batch: Any) -> BatchStatus:
    counts = batch.request_counts
    return BatchStatus(
        id=str(batch.id),
        status=str(batch.processing_status),
        processing=int(counts.processing),
        succeeded=int(counts.succeeded),
        errored=int(counts.errored),
        canceled=int(counts.canceled),
        expired=int(counts.expired),
    )


class BatchClient:
    """Submit, poll and read Message Batches with the settings' key and base URL."""

    def __init__(self, settings: ClaudeSettings, *, client: anthropic.Anthropic | None = None):
        # The batch endpoints are few, cheap calls: the SDK's own retries suffice; the pacing
        # middleware of the per-call client (rate-limit headers of /v1/messages) does not apply.
        self._client = client or anthropic.Anthropic(
            api_key=settings.require_key(),
            base_url=settings.base_url,
            timeout=max(settings.timeout, 120.0),
            max_retries=max(2, settings.max_retries),
        )

    @classmethod
    def from_options(cls, **options: Any) -> BatchClient:
        """From ClaudeSettings fields (api_key, base_url, ...) or the environment."""
        return cls(ClaudeSettings.from_env(**options))

    def submit(self, requests: Sequence[Request], refs: Iterable[PromptRef] = ()) -> BatchStatus:
        """Create one batch of these requests (at most MAX_REQUESTS; see `chunks`). `refs`, the
        templates the requests were rendered from, go in the provenance header, as a direct
        call's do (so a cassette of the batch says which prompts it holds)."""
        if not requests or len(requests) > MAX_REQUESTS:
            raise ValueError(f"a batch holds 1 to {MAX_REQUESTS} requests, not {len(requests)}")
        body = [{"custom_id": cid, "params": params} for cid, params in requests]
        unique = {(r.family, r.version): r for r in refs}
        headers = prompts_header(unique[k] for k in sorted(unique)) if unique else None
        batch = self._client.messages.batches.create(
            requests=cast(Any, body), extra_headers=headers
        )
        return _status(batch)

    def status(self, batch_id: str) -> BatchStatus:
        """The batch's processing status and request counts."""
        return _status(self._client.messages.batches.retrieve(batch_id))

    def results(self, batch_id: str) -> Iterator[BatchResult]:
        """Every request's outcome, streamed from the results file (an ended batch only)."""
        for entry in self._client.messages.batches.results(batch_id):
            data = entry.to_dict(mode="json")
            result = cast(dict[str, Any], data["result"])
            kind = str(result.get("type"))
            message = result.get("message") if kind == "succeeded" else None
            error: dict[str, Any] | None = None
            if kind == "errored":
                wrapped = result.get("error") or {}
                error = dict(wrapped.get("error") or wrapped)
            yield BatchResult(str(data["custom_id"]), kind, message, error)

    def close(self) -> None:
        """Release the HTTP connections."""
        self._client.close()
