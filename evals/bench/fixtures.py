"""What the runner benchmarks share: a suite of alike cases, and a classifier that takes a
fixed time per case."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import yaml

from pipeline.providers import ClassifyRequest, RespondRequest
from pipeline.reading import ClassifiedIntent


def suite_file(folder: Path, name: str, n: int, first: int = 0) -> Path:
    """A classify suite of `n` alike cases, numbered from `first`, written to `folder`."""
    cases = [
        {
            "id": f"case-{i}",
            "tags": ["bench", f"bucket-{i % 7}"],
            "project": "Garden" if i % 2 else None,
            "message": f"I prefer working in the mornings, variant {i}",
            "expect": {
                "intent": "remember_about_me",
                "params": {"personal_fact": {"contains": ["mornings"]}},
            },
        }
        for i in range(first, first + n)
    ]
    path = folder / f"{name}.yaml"
    path.write_text(
        yaml.safe_dump({"name": name, "target": "classify", "cases": cases}), encoding="utf-8"
    )
    return path


class FixedLatency:
    """A classifier that takes exactly `seconds` per case (sleeping, as a network call would)."""

    name = "fixed-latency"
    model = "sleep"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def classify(self, request: ClassifyRequest) -> ClassifiedIntent:
        """Sleep (unless no time is asked for), then answer correctly."""
        if self.seconds:
            time.sleep(self.seconds)
        return ClassifiedIntent(
            intent="remember_about_me",
            params={"personal_fact": request.message},
            provider=self.name,
            model=self.model,
        )

    def respond(self, request: RespondRequest) -> Any:
        """Not used by classify suites."""
        raise NotImplementedError
