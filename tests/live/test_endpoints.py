"""The openai-compatible provider spreads calls over several servers, at most N in flight each."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx2

from evals.loopback.openai_server import OpenAILoopback, intent
from pipeline.providers.base import ClassifyRequest
from pipeline.providers.openai_compat.endpoints import Spread, split_urls
from pipeline.providers.registry import ProviderOptions, make_providers


class Slow(httpx2.BaseTransport):
    """Answers after a pause, recording the most requests in flight per host."""

    def __init__(self) -> None:
        self.now: dict[str, int] = {}
        self.most: dict[str, int] = {}
        self.lock = threading.Lock()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        host = f"{request.url.host}:{request.url.port}"
        with self.lock:
            self.now[host] = self.now.get(host, 0) + 1
            self.most[host] = max(self.most.get(host, 0), self.now[host])
        time.sleep(0.05)
        with self.lock:
            self.now[host] -= 1
        return httpx2.Response(200, json={"ok": True})


def test_calls_are_spread_and_bounded_per_endpoint() -> None:
    inner = Slow()
    urls = ["http://a.test:1/v1", "http://b.test:2/v1", "http://c.test:3/v1"]
    client = httpx2.Client(transport=Spread(urls, per_endpoint=2, inner=inner))
    with ThreadPoolExecutor(12) as pool:
        answers = list(
            pool.map(lambda _: client.post("http://a.test:1/v1/chat/completions"), range(30))
        )
    assert all(a.status_code == 200 for a in answers)
    assert inner.most == {"a.test:1": 2, "b.test:2": 2, "c.test:3": 2}
    spread = client._transport
    assert isinstance(spread, Spread) and sum(spread.served.values()) == 30
    assert min(spread.served.values()) >= 5  # every server did its share


def test_several_base_urls_serve_one_provider() -> None:
    with (
        OpenAILoopback([intent("general_conversation")] * 4, lifetime=20.0) as one,
        OpenAILoopback([intent("general_conversation")] * 4, lifetime=20.0) as two,
    ):
        options = {
            "base_url": f"{one.url}, {two.url}",
            "model": "qwen-test",
            "max_retries": 0,
            "per_endpoint_concurrency": "1",
        }
        providers = make_providers("openai-compatible", ProviderOptions(settings=options))
        with ThreadPoolExecutor(4) as pool:
            got = list(
                pool.map(
                    lambda i: providers.classifier.classify(ClassifyRequest(message=f"hi {i}")),
                    range(6),
                )
            )
        assert [g.intent for g in got] == ["general_conversation"] * 6
        assert one.unmatched == two.unmatched == 0


def test_base_urls_are_split_trimmed_and_kept_once() -> None:
    assert split_urls(" http://a/v1/, http://b/v1 ,http://a/v1") == ["http://a/v1", "http://b/v1"]
