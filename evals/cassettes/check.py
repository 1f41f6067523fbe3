"""`converse cassettes check`: which cassettes are stale, from the files alone (no network)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from evals.cassettes.config import SYNTHETIC
from evals.cassettes.provenance import META_KEY, file_prompts, read_file
from evals.cassettes.secrets import find_secrets
from pipeline.errors import PromptError
from pipeline.prompting import PromptLibrary


@dataclass(frozen=True)
class CassetteStatus:
    """One cassette: whether it still matches the templates, and why not."""

    path: Path
    synthetic: bool
    interactions: int
    prompts: tuple[str, ...]
    stale: tuple[str, ...] = ()
    secrets: tuple[str, ...] = ()
    rerecord: str = ""
    problems: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        """Fresh, readable and clean."""
        return not (self.stale or self.secrets or self.problems)


def find_cassettes(root: Path) -> list[Path]:
    """Every cassette file under `root` (loopback answer scripts are not cassettes)."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*.yaml") if p.is_file() and not _is_answers(p))


def _is_answers(path: Path) -> bool:
    try:
        data = read_file(path)
    except (OSError, yaml.YAMLError):
        return False
    return "answers" in data and "interactions" not in data


def check_file(path: Path, library: PromptLibrary) -> CassetteStatus:
    """Compare one cassette's recorded prompt hashes with the templates on disk."""
    text = path.read_text(encoding="utf-8")
    try:
        data = read_file(path)
    except yaml.YAMLError as exc:
        return CassetteStatus(path, SYNTHETIC in path.parts, 0, (), problems=(f"not YAML: {exc}",))
    interactions = data.get("interactions")
    block = (data.get("metadata") or {}).get(META_KEY) or {}
    synthetic = bool(block.get("synthetic", SYNTHETIC in path.parts))
    rerecord = str(block.get("rerecord") or "")
    if not isinstance(interactions, list):
        return CassetteStatus(path, synthetic, 0, (), problems=("not a VCR cassette",))
    prompts = file_prompts(data)
    overrides = block.get("overrides") or {}
    try:
        active = library.active()
    except PromptError as exc:
        return CassetteStatus(path, synthetic, len(interactions), (), problems=(exc.one_line(),))
    stale: list[str] = []
    for family, ref in prompts.items():
        try:
            _, current = library.source(family, ref.version)
        except PromptError:
            stale.append(f"{family}/{ref.version} no longer exists")
            continue
        if current.sha256 != ref.sha256:
            stale.append(
                f"{family}/{ref.version} changed (sha256 {ref.sha256[:12]}… when recorded, "
                f"now {current.sha256[:12]}…)"
            )
        elif family not in overrides and active.get(family, ref.version) != ref.version:
            stale.append(f"{family} is now {active[family]} (recorded with {ref.version})")
    problems = () if prompts else ("no prompt provenance (recorded outside the harness?)",)
    return CassetteStatus(
        path=path,
        synthetic=synthetic,
        interactions=len(interactions),
        prompts=tuple(f"{f}/{r.version}" for f, r in prompts.items()),
        stale=tuple(stale),
        secrets=tuple(find_secrets(text)),
        rerecord=rerecord,
        problems=problems if interactions else (),
    )


def check_cassettes(root: Path, library: PromptLibrary) -> list[CassetteStatus]:
    """The status of every cassette under `root`."""
    return [check_file(path, library) for path in find_cassettes(root)]
