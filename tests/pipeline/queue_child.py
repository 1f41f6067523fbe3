"""A process that runs the turn queue and is killed by tests/pipeline/test_turn_queue.py.

usage: queue_child.py DB_URL MARKER_DIR MODE MESSAGE
  mid-turn:      submit MESSAGE; the responder writes MARKER_DIR/in-flight and hangs
  between-turns: submit MESSAGE, wait for its turn, write MARKER_DIR/answered, then hang
  received:      submit MESSAGE with a 600 s window (no turn starts), write received, hang
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pipeline.domain import Reply
from pipeline.providers.answers import validated
from pipeline.providers.base import ClassifyRequest, Providers, RespondRequest
from pipeline.reading import ClassifiedIntent
from pipeline.store import open_store
from pipeline.turn_queue import TurnQueue


class Provider:
    """General conversation for every message; the reply may hang to be killed mid-turn."""

    def __init__(self, hang_dir: Path | None) -> None:
        self.hang_dir = hang_dir

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        return validated("general_conversation", {}, provider="test", model="test")

    def respond(self, request: RespondRequest) -> Reply:
        if self.hang_dir is not None:
            (self.hang_dir / "in-flight").write_text(request.message)
            time.sleep(600)
        return Reply(text=f"heard: {request.message}", provider="test", model="test")


def main() -> None:
    url, marker_dir, mode, message = sys.argv[1:5]
    markers = Path(marker_dir)
    provider = Provider(markers if mode == "mid-turn" else None)
    queue = TurnQueue(
        open_store(url),
        window_s=600 if mode == "received" else 0,
        providers=Providers.of(provider, provider),
    )
    future = queue.submit("ana", message, channel="telegram")
    if mode == "received":
        (markers / "received").write_text(message)
    elif mode == "between-turns":
        future.result(timeout=60)
        (markers / "answered").write_text(message)
    time.sleep(600)


if __name__ == "__main__":
    main()
