"""Relative time as the memory block shows it ("noted 3 days ago")."""

from __future__ import annotations

from datetime import datetime


def _plural(n: int, unit: str) -> str:
    return f"{n} {unit}{'' if n == 1 else 's'} ago"


def relative_time(then: datetime, now: datetime) -> str:
    """Elapsed time in the coarse words of docs/memory.md; future times read as "just now"."""
    seconds = (now - then).total_seconds()
    hours = int(seconds // 3600)
    days = int(seconds // 86400)
    if hours < 1:
        return "just now"
    if hours < 24:
        return _plural(hours, "hour")
    if days < 2:
        return "yesterday"
    if days < 7:
        return _plural(days, "day")
    if days < 14:
        return "last week"
    if days < 30:
        return _plural(days // 7, "week")
    if days < 60:
        return "last month"
    if days < 365:
        return _plural(days // 30, "month")
    if days < 730:
        return "last year"
    return _plural(days // 365, "year")
