"""Parameter kinds shared by commands: ids and numbers (pipeline/ids.py's range), and counts
held to a range.

An id outside the range cannot exist: it is refused in one line that names it and says where
the real ones are shown, before any lookup sends it to the database driver.
"""

from __future__ import annotations

from typing import Any

import typer

from pipeline.cli.common import fail
from pipeline.ids import in_range


def _checker(what: str, where: str) -> Any:
    def check(value: int | list[int] | None) -> int | list[int] | None:
        values = value if isinstance(value, list) else [value]
        for one in values:
            if one is not None and not in_range(one):
                raise fail(f"there is no {what}{one} — {where}")
        return value

    return check


def id_argument(what: str, where: str, help_: str) -> Any:
    """A required id (or several, for a list parameter), e.g. `id_argument("#", ...)`.

    `what` prefixes the number in the error ("#", "notes#", "message ", "proposal #");
    `where` says which command shows the real ones.
    """
    return typer.Argument(..., help=help_, callback=_checker(what, where))


def optional_ids(what: str, where: str, help_: str) -> Any:
    """Several ids, or none, checked like id_argument."""
    return typer.Argument(None, help=help_, callback=_checker(what, where), show_default=False)


def id_option(what: str, where: str, help_: str, *names: str) -> Any:
    """An optional id option (default None), checked like id_argument."""
    return typer.Option(None, *names, help=help_, callback=_checker(what, where))


def _within(low: int, high: int, what: str, hint: str) -> Any:
    def check(value: int | None) -> int | None:
        if value is not None and not low <= value <= high:
            tail = f" — {hint}" if hint else ""
            raise fail(f"{what} is {value:,}; it must be {low:,} to {high:,}{tail}")
        return value

    return check


def bounded_option(
    default: int | None,
    low: int,
    high: int,
    *names: str,
    what: str,
    hint: str = "",
    **extra: Any,
) -> Any:
    """An int option held to [low, high] with a one-line error: a count that sizes work
    (epochs, threads, cases) is capped where more would only exhaust memory or threads."""
    return typer.Option(default, *names, callback=_within(low, high, what, hint), **extra)
