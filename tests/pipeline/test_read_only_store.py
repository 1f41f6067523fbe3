"""A SQLite database that cannot be written (file modes, a read-only mount) is reported as
read-only in one line, by every command, never as "unable to open database file"."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """The folder and its files read-only for this process: by modes for a user, by a
    read-only bind mount for root (whom modes do not stop)."""
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [folder, *folder.iterdir()]}
        for path in modes:
            path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            for path, mode in modes.items():
                path.chmod(mode)
        return
    mounted = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip(f"root cannot bind-mount here: {mounted.stderr.decode().strip()}")
    try:
        remount = ["mount", "-o", "remount,ro,bind", str(folder)]
        assert subprocess.run(remount, capture_output=True).returncode == 0
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def _converse(*args: str) -> subprocess.CompletedProcess[str]:
    """A command in a process of its own, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-c", "from evals.cli import main; main()", *args],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    "command",
    [
        ["chat", "-p", "Ana", "--provider", "local", "-m", "hello"],
        ["memory", "list", "-p", "Ana"],
        ["person", "add", "Ben"],
    ],
)
def test_a_read_only_database_is_named_read_only(tmp_path, monkeypatch, command):
    folder = tmp_path / "ro"
    folder.mkdir()
    database = folder / "converse.db"
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{database}")
    assert _converse("person", "add", "Ana").returncode == 0
    with read_only(folder):  # no process has it open: no -wal or -shm beside it
        done = _converse(*command)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"error: the database {database} is read-only"), lines[0]
    assert "make the file and its folder writable" in lines[0]
    assert "unable to open" not in lines[0]
