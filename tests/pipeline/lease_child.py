"""A process that says one message as `converse chat -m` does, for
tests/pipeline/test_inbox_lease.py: start together, then submit, resume, wait.

usage: lease_child.py DB_URL GO_FILE MESSAGE
Prints `answered: REPLY` or `error: ...` and exits 0 or 1.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pipeline.domain import Reply
from pipeline.errors import ConverseError
from pipeline.providers.answers import validated
from pipeline.providers.base import ClassifyRequest, Providers, RespondRequest
from pipeline.reading import ClassifiedIntent
from pipeline.store import open_store
from pipeline.turn_queue import TurnQueue


class Slow:
    """General conversation; each reply takes a moment, so the processes' turns overlap."""

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        return validated("general_conversation", {}, provider="test", model="test")

    def respond(self, request: RespondRequest) -> Reply:
        time.sleep(0.3)
        return Reply(text=f"heard: {request.message}", provider="test", model="test")


def main() -> None:
    url, go, message = sys.argv[1:4]
    provider = Slow()
    queue = TurnQueue(open_store(url), window_s=0, providers=Providers.of(provider, provider))
    while not Path(go).exists():  # every process starts its message at once
        time.sleep(0.01)
    try:
        future = queue.submit("ana", message)
        queue.resume("ana")
        outcome = future.result(timeout=120)
        queue.join()
    except ConverseError as exc:
        print(f"error: {exc.one_line()}", flush=True)
        sys.exit(1)
    print(f"answered: {outcome.reply.text}", flush=True)


if __name__ == "__main__":
    main()
