"""The few exception classes of the pipeline; the CLI turns each into one line."""

from __future__ import annotations


class ConverseError(Exception):
    """A usage or environment problem the person can fix; `hint` says how."""

    def __init__(self, message: str, hint: str = "") -> None:
        self.message = message
        self.hint = hint
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The message and the hint on one line, as the CLI prints it."""
        return f"{self.message} — {self.hint}" if self.hint else self.message


class InvalidMessage(ConverseError):
    """The operator's message cannot be processed (empty, too long)."""


class NotFound(ConverseError):
    """A named person, project or assertion does not exist."""


class NotAllowed(ConverseError):
    """A reader asked for memory outside its allowlist (pipeline/categories.yaml)."""


class StoreUnavailable(ConverseError):
    """The database cannot be opened."""


class SchemaOutdated(ConverseError):
    """The database is at an older migration than the code."""


class PromptError(ConverseError):
    """A prompt template is missing, or renders with a missing variable."""


class ProviderError(ConverseError):
    """A model provider failed or answered something unusable."""


class AlreadyAnswered(ConverseError):
    """A turn's inbox messages were answered by another worker meanwhile; nothing was stored."""


class IllegalTransition(ConverseError):
    """A conversation was asked to move to a state it cannot reach from where it is."""


class ConversationConflict(ConverseError):
    """A conversation was started while another one of the same person is still open."""


class PermanentDestination(ConverseError):
    """Your Story, the permanent destination of memories, cannot be deleted or archived."""
