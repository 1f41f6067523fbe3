"""A process that ends while its turn queue is in the middle of a turn
(tests/pipeline/test_queue_exit.py): the main thread returns as soon as the reply started.

usage: exit_child.py DB_URL MARKER_DIR MESSAGE
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


class SlowProvider:
    """Stands in for a model inside native code: the reply takes a second."""

    def __init__(self, markers: Path) -> None:
        self.markers = markers

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        return validated("general_conversation", {}, provider="test", model="test")

    def respond(self, request: RespondRequest) -> Reply:
        (self.markers / "in-flight").write_text(request.message)
        time.sleep(1.0)
        return Reply(text=f"heard: {request.message}", provider="test", model="test")


def main() -> None:
    url, marker_dir, message = sys.argv[1:4]
    markers = Path(marker_dir)
    provider = SlowProvider(markers)
    queue = TurnQueue(open_store(url), window_s=0, providers=Providers.of(provider, provider))
    queue.submit("ana", message)
    while not (markers / "in-flight").exists():
        time.sleep(0.01)
    # the main thread ends here, as `chat -m` does when another process answered its message


if __name__ == "__main__":
    main()
