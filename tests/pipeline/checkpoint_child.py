"""A process that runs turns and is killed by tests/pipeline/test_checkpoints.py.

usage: checkpoint_child.py DB_URL MARKER_DIR MODE
  between-turns: one turn ("I'm allergic to cherimoyas"), write MARKER_DIR/stored, hang
  mid-turn:      that turn, then "yes" whose reply writes MARKER_DIR/in-flight and hangs
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pipeline.converse import converse
from pipeline.domain import Reply
from pipeline.providers.base import Providers, RespondRequest
from pipeline.store import open_store
from tests.pipeline.test_checkpoints import PROVIDER


class Hanging:
    """The scripted replies, except that the reply to "yes" hangs to be killed."""

    def __init__(self, markers: Path) -> None:
        self.markers = markers

    def respond(self, request: RespondRequest) -> Reply:
        if request.message == "yes":
            (self.markers / "in-flight").write_text(request.message)
            time.sleep(600)
        return PROVIDER.respond(request)


def main() -> None:
    url, marker_dir, mode = sys.argv[1:4]
    markers = Path(marker_dir)
    store = open_store(url)
    responder = Hanging(markers)
    providers = Providers.of(PROVIDER, responder)
    turn = {"person": "ana", "project": "Garden", "providers": providers}
    converse(store, message="I'm allergic to cherimoyas", **turn)
    if mode == "between-turns":
        (markers / "stored").write_text("1")
    else:
        converse(store, message="yes", **turn)
    time.sleep(600)


if __name__ == "__main__":
    main()
