"""What a cassette was recorded with: the prompts, the source, and how to record it again.

Each recorded request carries the `x-converse-prompts` header the Claude provider sends, and
each cassette carries a summary under the top-level `metadata: converse:` key:

    metadata:
      converse:
        synthetic: true              # recorded from the loopback server, not a real model
        prompts:                     # every template the recorded requests used
          classifier: {version: v1, sha256: 9b03...}
        overrides: {}                # families recorded at a version other than the active one
        rerecord: pytest 'tests/claude/test_x_synthetic.py::test_y' --record-mode=rewrite
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from pipeline.domain import PromptRef
from pipeline.providers.claude import PROMPTS_HEADER, parse_prompts_header

META_KEY = "converse"


def _header(headers: Mapping[str, Any], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return str(value[0] if isinstance(value, list) and value else value)
    return ""


def prompts_of(headers_list: Iterable[Mapping[str, Any]]) -> dict[str, PromptRef]:
    """Every template named by these requests' provenance headers, by family."""
    found: dict[str, PromptRef] = {}
    for headers in headers_list:
        found.update(parse_prompts_header(_header(headers, PROMPTS_HEADER)))
    return dict(sorted(found.items()))


def summary(
    prompts: Mapping[str, PromptRef],
    *,
    synthetic: bool,
    rerecord: str,
    overrides: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The `metadata: converse:` block."""
    return {
        "synthetic": synthetic,
        "prompts": {f: {"version": r.version, "sha256": r.sha256} for f, r in prompts.items()},
        "overrides": dict(overrides or {}),
        "rerecord": rerecord,
    }


def stamp(
    cassette: Any,
    *,
    synthetic: bool,
    rerecord: str,
    overrides: Mapping[str, str] | None = None,
) -> None:
    """Write the summary into a VCR cassette that is being recorded (saved when it closes)."""
    prompts = prompts_of(request.headers for request in cassette.requests)
    block = cassette.get_metadata(META_KEY, {})
    block.clear()
    block.update(summary(prompts, synthetic=synthetic, rerecord=rerecord, overrides=overrides))
    cassette.dirty = True


def recorded_in(cassette: Any) -> dict[str, PromptRef]:
    """The templates a loaded VCR cassette's requests were made with."""
    return prompts_of(request.headers for request in cassette.requests)


def rerecord_of(path: Path) -> str:
    """The re-record command stored in a cassette file, or "" (no file, or none stored)."""
    try:
        block = (read_file(path).get("metadata") or {}).get(META_KEY) or {}
    except (OSError, yaml.YAMLError):
        return ""
    return str(block.get("rerecord") or "") if isinstance(block, dict) else ""


def read_file(path: Path) -> dict[str, Any]:
    """A cassette file as plain data (no VCR needed): its converse block and interactions."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return data if isinstance(data, dict) else {}


def file_prompts(data: Mapping[str, Any]) -> dict[str, PromptRef]:
    """The templates a cassette file was recorded with: its summary, else its request headers."""
    block = (data.get("metadata") or {}).get(META_KEY) or {}
    listed = block.get("prompts") if isinstance(block, dict) else None
    if isinstance(listed, dict) and listed:
        return {
            family: PromptRef(family=family, version=str(ref["version"]), sha256=str(ref["sha256"]))
            for family, ref in sorted(listed.items())
        }
    return prompts_of(
        (i.get("request") or {}).get("headers") or {} for i in data.get("interactions") or []
    )
