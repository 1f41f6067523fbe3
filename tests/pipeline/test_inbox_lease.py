"""Concurrent `chat -m` for one person: each process answers its own message (the inbox
lease), none ends with "another process answered this message first", and every message is
answered once, on its own."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from pipeline.domain import Engagement, Person, Role
from pipeline.store import Store, inbox
from pipeline.store.turns import recent_history

ROOT = Path(__file__).resolve().parents[2]
PROCESSES = 6


def test_concurrent_processes_each_answer_their_own_message(
    tmp_path: Path,
    sqlite_url: str,
    sqlite_store: Store,
    make_person: Callable[..., tuple[Person, Engagement]],
) -> None:
    person, _ = make_person(sqlite_store)
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    messages = [f"message number {n}" for n in range(PROCESSES)]
    children = [
        subprocess.Popen(
            [sys.executable, str(ROOT / "tests/pipeline/lease_child.py"), sqlite_url, str(go), m],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for m in messages
    ]
    time.sleep(3)  # let every interpreter start and wait at the line
    go.write_text("go")
    said = [child.communicate(timeout=180) for child in children]
    outputs = [out.strip() for out, _ in said]
    assert [c.returncode for c in children] == [0] * PROCESSES, said
    assert outputs == [f"answered: heard: {m}" for m in messages]
    with sqlite_store.read() as session:
        assert inbox.waiting(session) == []
        history = recent_history(session, person.id, None, 50)
    assert sorted(t.content for t in history if t.role is Role.OPERATOR) == sorted(messages)
