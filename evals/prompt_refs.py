"""The prompt templates a result row names, read defensively: a row is a file on disk that a
hand edit or another tool may have left with any types, and every page and report that lists
templates reads them through here (docs/view.md, "Errors")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def prompt_refs(row: Mapping[str, Any]) -> list[dict[str, str]]:
    """The row's `prompts` as {family, version, sha256} of text. An entry that is not a
    mapping with a text family and version is left out; a sha256 that is not text is empty."""
    raw = row.get("prompts")
    if not isinstance(raw, list):
        return []
    refs = []
    for ref in raw:
        if not isinstance(ref, Mapping):
            continue
        family, version, sha = ref.get("family"), ref.get("version"), ref.get("sha256")
        if isinstance(family, str) and isinstance(version, str):
            refs.append(
                {
                    "family": family,
                    "version": version,
                    "sha256": sha if isinstance(sha, str) else "",
                }
            )
    return refs
