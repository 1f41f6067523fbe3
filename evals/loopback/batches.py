"""The Message Batches endpoints of the loopback server, answered from the same scripted answers.

`POST /v1/messages/batches` takes `{"requests": [{custom_id, params}, ...]}` and answers each
request's params as `POST /v1/messages` would (so a batched call gets the answer, usage and
synthetic model a direct call gets; rate limits and latency do not apply to batches).
`GET /v1/messages/batches/{id}` reports `in_progress` for the first `polls` retrievals of a
batch and `ended` after (`polls` can be changed while a batch runs), with its request counts
and `results_url`; `GET .../results` is the JSONL results file (`succeeded` with the message,
`errored` with the error body). The log counts submissions and polls, so a test can show how
often a batch was submitted and polled.
"""

from __future__ import annotations

import itertools
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

BATCHES_PATH = "/v1/messages/batches"
_CUSTOM_ID = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_BATCH_PATH = re.compile(r"^/v1/messages/batches/([A-Za-z0-9_]+)(/results)?$")

Reply = tuple[int, str, dict[str, str]]
Answerer = Callable[[Any], Reply]


@dataclass
class _Batch:
    id: str
    created_at: datetime
    results: list[dict[str, Any]]
    polled: int = 0
    ended_at: datetime | None = None


@dataclass
class BatchLog:
    """What the batch endpoints were asked: ids created (with their sizes) and polls."""

    created: list[tuple[str, int]] = field(default_factory=list)
    polls: dict[str, int] = field(default_factory=dict)
    results_read: dict[str, int] = field(default_factory=dict)


def _error(status: int, kind: str, message: str) -> Reply:
    body = {"type": "error", "error": {"type": kind, "message": message}}
    return status, json.dumps(body), {}


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


class BatchDesk:
    """Batches the server holds, answered by `answer` (the server's Messages answer)."""

    def __init__(self, answer: Answerer, polls: int = 1) -> None:
        self._answer = answer
        self.polls = polls
        self.log = BatchLog()
        self._batches: dict[str, _Batch] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    @staticmethod
    def handles(path: str) -> bool:
        """Whether a request path is one of the batch endpoints."""
        return path == BATCHES_PATH or _BATCH_PATH.match(path) is not None

    def create(self, body: Any) -> Reply:
        """Take a batch: every request is answered now, reported as processing until polled."""
        requests = body.get("requests") if isinstance(body, dict) else None
        if not isinstance(requests, list) or not requests:
            return _error(400, "invalid_request_error", "requests: at least one is required")
        seen: set[str] = set()
        for request in requests:
            cid = request.get("custom_id") if isinstance(request, dict) else None
            if not isinstance(cid, str) or not _CUSTOM_ID.match(cid):
                rule = "^[a-zA-Z0-9_-]{1,64}$"
                return _error(400, "invalid_request_error", f"custom_id {cid!r} must match {rule}")
            if cid in seen:
                return _error(400, "invalid_request_error", f"custom_id {cid!r} is given twice")
            if not isinstance(request.get("params"), dict):
                return _error(400, "invalid_request_error", f"{cid}: params must be an object")
            seen.add(cid)
        results = [self._result(r["custom_id"], r["params"]) for r in requests]
        with self._lock:
            batch_id = f"msgbatch_synthetic_{next(self._ids):06d}"
            batch = _Batch(batch_id, datetime.now(UTC), results)
            self._batches[batch_id] = batch
            self.log.created.append((batch_id, len(requests)))
        return 200, json.dumps(self._object(batch, "")), {}

    def retrieve(self, batch_id: str, base_url: str) -> Reply:
        """The batch's status; each retrieval while it is processing counts down one poll."""
        with self._lock:
            batch = self._batches.get(batch_id)
            if batch is None:
                return _error(404, "not_found_error", f"no batch {batch_id}")
            self.log.polls[batch_id] = self.log.polls.get(batch_id, 0) + 1
            if batch.ended_at is None:
                batch.polled += 1
                if batch.polled > self.polls:  # `polls` may be changed while batches run
                    batch.ended_at = datetime.now(UTC)
            return 200, json.dumps(self._object(batch, base_url)), {}

    def results(self, batch_id: str) -> Reply:
        """The JSONL results file of an ended batch."""
        with self._lock:
            batch = self._batches.get(batch_id)
            if batch is None:
                return _error(404, "not_found_error", f"no batch {batch_id}")
            if batch.ended_at is None:
                return _error(400, "invalid_request_error", f"batch {batch_id} is still processing")
            self.log.results_read[batch_id] = self.log.results_read.get(batch_id, 0) + 1
            lines = [json.dumps(r, ensure_ascii=False) for r in batch.results]
        return 200, "\n".join(lines) + "\n", {"content-type": "application/binary"}

    def route(self, method: str, path: str, body: Any, base_url: str) -> Reply:
        """Dispatch one request to the endpoint its method and path name."""
        if method == "POST" and path == BATCHES_PATH:
            return self.create(body)
        found = _BATCH_PATH.match(path)
        if method == "GET" and found is not None:
            if found.group(2):
                return self.results(found.group(1))
            return self.retrieve(found.group(1), base_url)
        return _error(404, "not_found_error", f"no route {method} {path}")

    def _result(self, custom_id: str, params: dict[str, Any]) -> dict[str, Any]:
        status, text, _ = self._answer(params)
        data = json.loads(text)
        if status == 200:
            return {"custom_id": custom_id, "result": {"type": "succeeded", "message": data}}
        return {"custom_id": custom_id, "result": {"type": "errored", "error": data}}

    def _object(self, batch: _Batch, base_url: str) -> dict[str, Any]:
        ended = batch.ended_at is not None
        kinds = [r["result"]["type"] for r in batch.results]
        counts = {
            "processing": 0 if ended else len(kinds),
            "succeeded": kinds.count("succeeded") if ended else 0,
            "errored": kinds.count("errored") if ended else 0,
            "canceled": 0,
            "expired": 0,
        }
        return {
            "id": batch.id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": counts,
            "created_at": _time(batch.created_at),
            "expires_at": _time(batch.created_at + timedelta(hours=24)),
            "ended_at": _time(batch.ended_at),
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{base_url}{BATCHES_PATH}/{batch.id}/results" if ended else None,
        }
