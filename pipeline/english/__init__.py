"""English: the rules that read English wording, for the `local` provider (which stands in
for a model's reading) and the labelled deterministic fallbacks. The core (router, handlers,
turn path) never imports this package; it acts on the typed reading a classifier gives
(pipeline/domain.py, Reading). tests/pipeline/test_language_boundary.py holds the line."""

from pipeline.english.lexicon import ENGLISH

__all__ = ["ENGLISH"]
