"""Exports of our suites to other eval tools."""

from evals.export.promptfoo import assertions, export_promptfoo

__all__ = ["assertions", "export_promptfoo"]
