"""What the viewer says when a request cannot be answered: a status and one line of advice."""

from __future__ import annotations

from pipeline.errors import ConverseError


class ViewError(ConverseError):
    """A request the viewer refuses: shown as a page with its HTTP status, never a traceback."""

    def __init__(self, status: int, message: str, hint: str = "") -> None:
        super().__init__(message, hint)
        self.status = status
