"""A process that answers the companion's offer once, for tests/pipeline/test_one_answer.py:
open the store, wait for the go file, say MESSAGE as `converse chat -m` would, print the reply.

usage: answer_child.py DB_URL GO_FILE PERSON MESSAGE
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from pipeline.converse import converse
from pipeline.domain import Reply
from pipeline.providers.base import Providers, RespondRequest
from pipeline.store import open_store
from tests.pipeline.test_one_answer import PROVIDER


class Slow:
    """The scripted replies, each taking a moment, so that two processes' turns overlap."""

    def respond(self, request: RespondRequest) -> Reply:
        time.sleep(0.3)
        return PROVIDER.respond(request)


def main() -> None:
    url, go, person, message = sys.argv[1:5]
    store = open_store(url)
    providers = Providers.of(PROVIDER, Slow())
    # a first turn loads what a turn loads lazily, so both answers start at the same moment
    converse(store, person="ben", message="hello", providers=providers)
    Path(f"{go}.{message}").write_text("ready")
    while not Path(go).exists():  # both processes answer at once
        time.sleep(0.005)
    outcome = converse(
        store, person=person, message=message, providers=Providers.of(PROVIDER, Slow())
    )
    print(outcome.reply.text, flush=True)


if __name__ == "__main__":
    main()
