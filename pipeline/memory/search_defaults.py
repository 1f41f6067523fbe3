"""Defaults of semantic search that `converse search` shows in its help, apart from the search
itself (pipeline/memory/search.py: numpy and the store), so the help page needs neither."""

from __future__ import annotations

MIN_SIMILARITY = 0.30
DEFAULT_K = 5
