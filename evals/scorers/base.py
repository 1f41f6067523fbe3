"""What a scorer returns: a verdict with the evidence for it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Check:
    """One checked expectation: what was expected, what came back, whether it held."""

    name: str
    expected: Any
    got: Any
    passed: bool
    why: str = ""
    turn: int | None = None  # which turn of a conversation the check is about

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form for result rows."""
        out = {
            "name": self.name,
            "expected": self.expected,
            "got": self.got,
            "pass": self.passed,
            "why": self.why,
        }
        return out if self.turn is None else {**out, "turn": self.turn}


@dataclass(frozen=True)
class Score:
    """A scorer's verdict on one case, with every check that led to it."""

    scorer: str
    version: int
    expected: Any
    got: Any
    checks: tuple[Check, ...] = field(default_factory=tuple)

    @property
    def passed(self) -> bool:
        """Every check held."""
        return all(c.passed for c in self.checks)

    @property
    def why(self) -> str:
        """The failed checks in one line ("" when passed)."""
        return "; ".join(c.why or f"{c.name} failed" for c in self.checks if not c.passed)


@dataclass(frozen=True)
class Scorer:
    """A named, versioned scoring function; bump the version whenever verdicts would change."""

    name: str
    version: int
    fn: Callable[[Any, dict[str, Any]], Score]

    def __call__(self, expect: Any, got: dict[str, Any]) -> Score:
        """Score `got` against the case's expectations."""
        return self.fn(expect, got)


def text_checks(
    name: str, text: str | None, contains: list[str], excludes: list[str]
) -> list[Check]:
    """Case-insensitive contains/excludes checks on a text (None = the text is missing)."""
    checks: list[Check] = []
    if text is None:
        return [
            Check(name, {"contains": contains, "excludes": excludes}, None, False, f"no {name}")
        ]
    folded = text.casefold()
    for needle in contains:
        ok = needle.casefold() in folded
        checks.append(
            Check(
                f"{name} contains",
                needle,
                text,
                ok,
                "" if ok else f"{name} {text!r} lacks {needle!r}",
            )
        )
    for needle in excludes:
        ok = needle.casefold() not in folded
        checks.append(
            Check(
                f"{name} excludes",
                needle,
                text,
                ok,
                "" if ok else f"{name} {text!r} has {needle!r}",
            )
        )
    return checks
