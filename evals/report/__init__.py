"""Reports over run rows: tables, confusion heatmaps, comparisons, reviews and releases."""

from evals.report.build import BuiltReport, build_report, load_run
from evals.report.release import write_release
from evals.report.reviews import Review, add_review, load_reviews

__all__ = [
    "BuiltReport",
    "Review",
    "add_review",
    "build_report",
    "load_reviews",
    "load_run",
    "write_release",
]
