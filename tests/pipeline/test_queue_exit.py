"""A process that ends while its queue is in a turn lets that turn finish first, so no worker
is inside a model's native code when the runtime is torn down (the exit-134 abort), and the
turn is stored, not left half done."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import create_engine, text

from pipeline.store import open_store
from pipeline.store.people import create_person

CHILD = Path(__file__).with_name("exit_child.py")
ROOT = Path(__file__).resolve().parents[2]


def test_exit_waits_for_the_turn_in_progress(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'exit.db'}"
    store = open_store(url)
    with store.write() as session:
        create_person(session, "ana")
    store.dispose()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(CHILD), url, str(tmp_path), "hello there"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    engine = create_engine(url)
    with engine.connect() as conn:
        waiting = conn.execute(text("select count(*) from inbox")).scalar_one()
        turns = conn.execute(text("select content from conversation_turns order by id")).all()
    engine.dispose()
    assert waiting == 0
    assert [t.content for t in turns] == ["hello there", "heard: hello there"]
