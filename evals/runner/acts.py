"""A classification's acts as a row keeps them: what the reading is scored on (evals/reading)."""

from __future__ import annotations

from typing import Any

from pipeline.reading import ClassifiedIntent


def acts_record(classified: ClassifiedIntent) -> list[dict[str, Any]]:
    """Every act the classifier read, in order, each without its default fields."""
    return [act.model_dump(mode="json", exclude_defaults=True) for act in classified.all_acts()]
