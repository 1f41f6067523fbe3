"""Every file a command is told to write (`--out`, `--output`, `--junit`) is written one way
(pipeline/files.py): a regular file replaced whole; a symlink followed, the file it names
replaced and the link kept; a folder, device or FIFO refused in one line with nothing written;
a missing folder refused, not created; a full disk one line, the old file unchanged."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from evals.cli import app

runner = CliRunner()
SUITE = {"name": "written", "target": "classify", "description": "x",
         "cases": [{"id": "c0", "message": "m", "expect": {"intent": "general_conversation"}}]}  # fmt: skip
SCRIPT = {"turns": [{"message": "m", "intent": "general_conversation"}]}


def _eval_args(tmp: Path) -> list[str]:
    return ["eval", "--provider", "scripted", "--script", str(tmp / "script.yaml"),
            "--suite", str(tmp / "suite.yaml"), "--no-cache", "--no-report", "--no-progress"]  # fmt: skip


# Each command, the argv that writes `path`, and what it calls the file in its errors.
COMMANDS: dict[str, tuple[Callable[[Path, Path], list[str]], str]] = {
    "suites schema": (lambda tmp, p: ["suites", "schema", "--out", str(p)], "schema"),
    "runs trend": (lambda tmp, p: ["runs", "trend", "--out", str(p)], "trend page"),
    "memory export": (
        lambda tmp, p: ["memory", "export", "--person", "Ana", "--output", str(p)],
        "export",
    ),
    "conversation export": (
        lambda tmp, p: ["conversation", "export", "--person", "Ana", "--output", str(p)],
        "export",
    ),
    "eval --junit": (lambda tmp, p: [*_eval_args(tmp), "--junit", str(p)], "JUnit XML"),
}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    monkeypatch.delenv("CONVERSE_RUNS_URL", raising=False)
    (tmp_path / "suite.yaml").write_text(yaml.safe_dump(SUITE), "utf-8")
    (tmp_path / "script.yaml").write_text(yaml.safe_dump(SCRIPT), "utf-8")
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    assert runner.invoke(app, _eval_args(tmp_path)).exit_code == 0  # a stored run to trend
    (tmp_path / "out").mkdir()
    return tmp_path


def _device(folder: Path) -> Path:
    """A character device to name: a null device made here as root (never /dev/null itself,
    which an unguarded rename as root would replace), else /dev/null, which no other user can
    replace."""
    if os.geteuid() != 0:
        return Path("/dev/null")
    path = folder / "null-device"
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    return path


def _run(env: Path, command: str, path: Path) -> tuple[int, str]:
    argv, _ = COMMANDS[command]
    result = runner.invoke(app, argv(env, path))
    return result.exit_code, result.output


@pytest.mark.parametrize("command", COMMANDS)
def test_a_device_fifo_or_folder_is_refused_and_left_as_it_was(env: Path, command: str) -> None:
    what = COMMANDS[command][1]
    out = env / "out"
    fifo = out / "fifo"
    os.mkfifo(fifo)
    device = _device(out)
    for path, said in (
        (device, f"error: {device} is not a regular file (a device, pipe or socket); nothing "
                 f"was written — name a file on disk for the {what}"),
        (fifo, f"error: {fifo} is not a regular file (a device, pipe or socket); nothing was "
               f"written — name a file on disk for the {what}"),
        (out, f"error: {out} is a folder — name a file to write the {what} to"),
    ):  # fmt: skip
        code, output = _run(env, command, path)
        assert code == 2 and output.splitlines()[-1] == said, output
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and stat.S_ISCHR(device.lstat().st_mode)
    assert sorted(p.name for p in out.iterdir()) == sorted({"fifo", device.name} - {"null"})


@pytest.mark.parametrize("command", COMMANDS)
def test_a_missing_folder_is_refused_not_made(env: Path, command: str) -> None:
    path = env / "out" / "typo" / "file.txt"
    code, output = _run(env, command, path)
    assert code == 2
    assert output.splitlines()[-1] == (
        f"error: the folder of {path} does not exist — create it first, or name another file"
    )
    assert not (env / "out" / "typo").exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_symlink_is_followed_and_kept(env: Path, command: str) -> None:
    real = env / "out" / "real.txt"
    real.write_text("older\n", encoding="utf-8")
    real.chmod(0o640)
    link = env / "out" / "link.txt"
    link.symlink_to(real.name)
    code, output = _run(env, command, link)
    assert code == 0, output
    assert link.is_symlink() and os.readlink(link) == real.name
    assert real.read_text(encoding="utf-8") != "older\n" and real.stat().st_size > 0
    assert stat.S_IMODE(real.stat().st_mode) == 0o640  # replaced whole, permissions kept
    assert sorted(p.name for p in (env / "out").iterdir()) == ["link.txt", "real.txt"]


@pytest.mark.parametrize("command", ["suites schema", "runs trend", "memory export"])
def test_a_full_disk_is_one_line_and_the_old_file_stays(
    env: Path, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    what = COMMANDS[command][1]
    target = env / "out" / "kept.txt"
    target.write_text("the earlier file\n", encoding="utf-8")

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("pipeline.files.os.fsync", full)
    code, output = _run(env, command, target)
    assert code == 2
    assert output.splitlines() == [
        f"error: the disk holding {target} is full; the {what} was not written and the file "
        "there is unchanged — free some space and run it again"
    ]
    assert target.read_text(encoding="utf-8") == "the earlier file\n"
    assert [p.name for p in (env / "out").iterdir()] == ["kept.txt"]  # no temporary file left
