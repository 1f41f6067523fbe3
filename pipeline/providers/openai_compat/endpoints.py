"""Several servers behind one client: each call goes to the least busy endpoint with room.

`base_url` may list several servers separated by commas (a fleet of vLLM or llama.cpp servers
serving one model). The SDK client is built for the first; this transport rewrites each
request's URL to the endpoint with the fewest calls in flight, and with `per_endpoint` > 0 holds
a call until some endpoint has fewer than that many in flight. `served` counts the calls each
endpoint answered (tests, and a run's account of where its calls went).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import httpx2


def split_urls(base_url: str) -> list[str]:
    """ "http://a/v1, http://b/v1" -> ["http://a/v1", "http://b/v1"] (order kept, no repeats)."""
    return list(dict.fromkeys(u.strip().rstrip("/") for u in base_url.split(",") if u.strip()))


class Spread(httpx2.BaseTransport):
    """A transport that spreads requests over endpoints, at most `per_endpoint` in flight each."""

    def __init__(
        self,
        urls: Sequence[str],
        per_endpoint: int = 0,
        inner: httpx2.BaseTransport | None = None,
    ) -> None:
        self.urls = [u.rstrip("/") for u in urls]
        self.per_endpoint = per_endpoint
        self.inner = inner or httpx2.HTTPTransport()
        self.in_flight = dict.fromkeys(self.urls, 0)
        self.served = dict.fromkeys(self.urls, 0)
        self._cond = threading.Condition()

    def _take(self) -> str:
        with self._cond:
            while True:
                open_ = [
                    u
                    for u in self.urls
                    if not self.per_endpoint or self.in_flight[u] < self.per_endpoint
                ]
                if open_:
                    chosen = min(open_, key=lambda u: (self.in_flight[u], self.served[u]))
                    self.in_flight[chosen] += 1
                    return chosen
                self._cond.wait()

    def _give_back(self, url: str) -> None:
        with self._cond:
            self.in_flight[url] -= 1
            self.served[url] += 1
            self._cond.notify()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send the request to the chosen endpoint (same path under its base URL)."""
        first = self.urls[0]
        url = str(request.url)
        chosen = self._take()
        try:
            if url.startswith(first):
                request.url = httpx2.URL(chosen + url[len(first) :])
            response = self.inner.handle_request(request)
            response.read()  # the slot is held until the answer is in
            return response
        finally:
            self._give_back(chosen)

    def close(self) -> None:
        """Close the inner transport."""
        self.inner.close()
