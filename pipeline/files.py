"""Reading and writing a file someone named: bounded, and only if it is a regular file.

A path from a command line or a setting may name anything: a FIFO (opening it waits forever
for a writer), /dev/zero (endless), /proc files (their size reads 0), a folder, or a file far
larger than any real input. Every such file is opened without blocking, checked to be a
regular file, and read at most `limit` + 1 bytes, so the check holds whatever the file is and
even if it grows while it is read.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from pipeline.errors import ConverseError


def read_bounded(
    path: Path,
    limit: int,
    what: str,
    error: type[ConverseError] = ConverseError,
    too_big: str = "name the right file, or split it",
) -> str:
    """The UTF-8 text of the regular file `path` (a `what`, e.g. "suite file"), or `error` in
    one line; `too_big` is the hint when it is over `limit` bytes.

    OSError (missing file, no permission) passes through for the caller to word; everything
    about the file's kind, size and encoding is `error`.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{path} is a folder, not a {what}", "name a file")
        if not stat.S_ISREG(mode):
            raise error(
                f"{path} is not a regular file (a device, pipe or socket), so not a {what}",
                "name a file on disk",
            )
        size = os.fstat(fd).st_size
        if size > limit:
            raise error(f"{path} is {size:,} bytes; a {what} may have at most {limit:,}", too_big)
        os.set_blocking(fd, True)
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise error(f"{path} is over {limit:,} bytes; a {what} may have at most {limit:,}", too_big)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{path} is not UTF-8 text", "save it as UTF-8") from None


def existing_file(path: Path, what: str, hint: str) -> Path:
    """`path` when it names a regular file, else a ConverseError naming `what` and `hint`."""
    if not path.exists():
        raise ConverseError(f"{what} {path} not found", hint)
    if not path.is_file():
        raise ConverseError(f"{what} {path} is not a regular file", hint)
    return path


def yaml_problem(exc: Exception) -> str:
    """A YAML error on one line, place first: "line 3, column 9: expected ',' or ']'"."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    said = f"{problem} ({context})" if context else str(problem)
    return f"line {mark.line + 1}, column {mark.column + 1}: {said}" if mark else said


# Writing a file someone named (`--out`, `--output`, `--junit`): the one way every command
# does it. A rename over the named path would turn a device (/dev/null as root), a FIFO or a
# symlink into a regular file and report success; a missing folder created on the fly would
# hide a typo. So: a regular file (or a path not there yet, in an existing folder) is replaced
# atomically; a symlink is followed deliberately, and the file it names is replaced (the link
# stays a link); a folder, device, FIFO or socket is refused; a full disk is one line and
# leaves the old file whole.


def output_path(path: Path, what: str) -> Path:
    """The file to write for `path` (a symlink resolved to what it names), or a ConverseError
    in one line when nothing may be written there. Called before the work, so a command that
    cannot write its output refuses before it computes anything."""
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise ConverseError(f"cannot write the {what} to {path}: {exc.strerror}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise ConverseError(f"{path} is a folder", f"name a file to write the {what} to")
    if mode is not None and not stat.S_ISREG(mode):
        raise ConverseError(
            f"{path} is not a regular file (a device, pipe or socket); nothing was written",
            f"name a file on disk for the {what}",
        )
    if not target.parent.is_dir():
        raise ConverseError(
            f"the folder of {path} does not exist", "create it first, or name another file"
        )
    return target


def write_output(path: Path, data: str | bytes, what: str) -> Path:
    """Write `data` (text is UTF-8) to the file `path` names, replacing it whole: through a
    temporary file beside it, fsynced, then renamed over it, keeping an existing file's
    permissions. Returns the file written; refusals and failures are one-line ConverseErrors."""
    target = output_path(path, what)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    try:
        descriptor, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as exc:
        raise _not_written(path, target, what, exc) from None
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException as exc:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _not_written(path, target, what, exc) from None
        raise
    return target


def _not_written(path: Path, target: Path, what: str, exc: OSError) -> ConverseError:
    if exc.errno == errno.ENOSPC:
        kept = " and the file there is unchanged" if target.exists() else ""
        return ConverseError(
            f"the disk holding {path} is full; the {what} was not written{kept}",
            "free some space and run it again",
        )
    return ConverseError(
        f"cannot write the {what} to {path}: {exc.strerror or exc}", "name a writable file"
    )
