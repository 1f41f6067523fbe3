"""The middleware that turns a live run's Messages calls into batch requests.

A batch run runs its cases in passes. In each pass every case that has no row yet runs through
the real pipeline; its Messages calls reach `BatchGuard`, the outermost middleware of the
Claude client, instead of the API:

- a call whose answer a collected batch holds is answered from it (the message body the API
  returned, parsed exactly as a direct answer is), with no request sent;
- the first call without an answer is kept as a batch request and raises `BatchPending`; the
  case is held (`held_here`): it writes no row and caches nothing, and every later call of the
  case raises at once, so nothing built on a missing answer is ever asked for.

A request's `custom_id` is the digest of the case's work-item key, the call's position in the
case and the request body, so a case asks for the same id in every pass while its earlier
answers are the same, and two epochs of one case are two requests. A row whose calls were
answered from batches is priced at the batch rate (`prices.cost(..., batch=True)`) and marked
`"batch": true`.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import anthropic
import httpx2
from anthropic import APIRequest, APIResponse, CallNext

from pipeline.domain import Usage
from pipeline.providers.claude import (
    PROMPTS_HEADER,
    BatchResult,
    cost,
    one_hour_writes,
    total_cost,
)

MESSAGES_PATH = "/v1/messages"
# Status codes of error types, as the Messages API answers them directly.
ERROR_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "billing_error": 402,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}


class BatchPending(Exception):
    """This call's answer will come from a batch that has not been collected yet."""


@dataclass(frozen=True)
class Pending:
    """A request kept for the next batch: which suite's case asked for it, and its body."""

    custom_id: str
    suite: str
    params: dict[str, Any]
    prompts: str = ""  # the call's provenance header (family/version=sha256,...)


def custom_id(key: tuple[Any, ...], index: int, body: Mapping[str, Any]) -> str:
    """The request's id: stable across passes, distinct across cases, epochs and calls."""
    payload = json.dumps([list(key), index, body], sort_keys=True, ensure_ascii=False)
    return "cv_" + hashlib.sha256(payload.encode()).hexdigest()[:40]


def _usage(message: Mapping[str, Any]) -> Usage:
    usage = message.get("usage") or {}
    return Usage(
        input_tokens=int(usage.get("input_tokens") or 0),
        output_tokens=int(usage.get("output_tokens") or 0),
        cache_read_input_tokens=int(usage.get("cache_read_input_tokens") or 0),
        cache_creation_input_tokens=int(usage.get("cache_creation_input_tokens") or 0),
        cache_creation_1h_input_tokens=one_hour_writes(usage),
    )


class BatchGuard(anthropic.Middleware):
    """Answers Messages calls from collected batch results; keeps the rest for the next batch.

    It is also the eval executor's deferral: `start_item` before a case, `held_here` after it,
    `finish_row` on the row it writes."""

    def __init__(self, answers: Mapping[str, BatchResult]) -> None:
        self.answers = answers
        self.pending: dict[str, Pending] = {}
        self.answered = 0
        self._lock = threading.Lock()
        self._local = threading.local()

    # the executor's side -------------------------------------------------------------------

    def start_item(self, key: tuple[Any, ...]) -> None:
        """A case begins on this thread."""
        self._local.key = key
        self._local.index = 0
        self._local.held = False
        self._local.costs = []

    def held_here(self) -> bool:
        """Whether this thread's case is waiting on a batch (it writes no row this pass)."""
        return bool(getattr(self._local, "held", False))

    def finish_row(self, row: dict[str, Any]) -> None:
        """Price a row answered from batches at the batch rate, and mark it."""
        costs: list[float | None] = getattr(self._local, "costs", [])
        if not costs:
            return
        total = total_cost(costs)
        row["cost_usd"] = None if total is None else round(total, 8)
        row["batch"] = True

    # the client's side ---------------------------------------------------------------------

    def handle(self, request: APIRequest, call_next: CallNext) -> APIResponse[Any]:
        """Answer a Messages call from a batch result, or keep it and raise BatchPending."""
        body = request.json
        if (
            request.method.lower() != "post"
            or not request.url.endswith(MESSAGES_PATH)
            or not isinstance(body, dict)
        ):
            return call_next(request)  # count_tokens and the like are free: they go live
        if self.held_here():
            raise BatchPending("an earlier call of this case is waiting on a batch")
        key: tuple[Any, ...] = getattr(self._local, "key", ())
        index = int(getattr(self._local, "index", 0))
        self._local.index = index + 1
        cid = custom_id(key, index, body)
        result = self.answers.get(cid)
        if result is None:
            self._local.held = True
            suite = str(key[0]) if key else ""
            with self._lock:
                prompts = str(dict(request.headers).get(PROMPTS_HEADER) or "")
                self.pending[cid] = Pending(cid, suite, dict(body), prompts)
            raise BatchPending(f"request {cid} goes in the next batch")
        with self._lock:
            self.answered += 1
        return self._response(request, result)

    def _response(self, request: APIRequest, result: BatchResult) -> APIResponse[Any]:
        if result.kind == "succeeded" and result.message is not None:
            status, payload = 200, result.message
            if hasattr(self._local, "costs"):
                model = str(result.message.get("model", ""))
                self._local.costs.append(cost(model, _usage(result.message), batch=True))
        else:
            error = result.error or {
                "type": "api_error",
                "message": f"the batch request was {result.kind} every time it was submitted",
            }
            status = ERROR_STATUS.get(str(error.get("type")), 500)
            payload = {"type": "error", "error": error}
        raw = httpx2.Response(
            status,
            json=payload,
            headers={"request-id": f"batch_{result.custom_id}"},
            request=httpx2.Request("POST", f"https://message-batches.invalid{MESSAGES_PATH}"),
        )
        # The response is read only as JSON (pipeline.providers.claude.calls.create_message
        # asks for the raw response), so no client is needed to parse it.
        return APIResponse(
            raw=raw,
            cast_to=request.cast_to,
            client=cast(Any, None),
            stream=False,
            stream_cls=None,
            options=request.options,
            retries_taken=0,
        )
