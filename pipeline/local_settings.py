"""Settings of the embedded `local` provider, checked like every other CONVERSE_* setting.

`CONVERSE_LOCAL_THREADS` (onnxruntime's and torch's threads) and `CONVERSE_LOCAL_EXAMPLES`
(the nearest-examples file) are read here, so "abc", "-1" or a file that is not an examples
mapping (e.g. /etc/passwd) is one line naming the variable, not a ValueError or an
AttributeError from deep inside the provider.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BeforeValidator, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from pipeline.errors import ConverseError
from pipeline.files import read_bounded, yaml_problem
from pipeline.settings import checked_settings

# The examples file of the project is ~40 KB.
MAX_EXAMPLES_BYTES = 5_000_000


def _lowercase(value: object) -> object:
    return value.strip().lower() if isinstance(value, str) else value


Embedder = Annotated[Literal["onnx", "torch"], BeforeValidator(_lowercase)]


class LocalSettings(BaseSettings):
    """CONVERSE_LOCAL_* settings, and the embedder's (docs/providers.md, "local")."""

    # an empty variable is unset, as when these were read one by one
    model_config = SettingsConfigDict(
        env_prefix="CONVERSE_LOCAL_", extra="ignore", env_ignore_empty=True
    )

    threads: int | None = Field(None, ge=1, le=256)
    examples: Path | None = None
    # The embedder of every provider's memory search: the int8 ONNX model, or sentence-
    # transformers on torch for comparison (pipeline/providers/local/model.py).
    embedder: Embedder = Field("onnx", validation_alias="CONVERSE_EMBEDDER")
    # An ONNX file instead of the packaged one; a sentence-transformers folder for torch.
    onnx: Path | None = None
    model_dir: Path | None = None
    # torch only: a traced copy of the model for one text at a time (about a third faster).
    jit: bool = True
    # Where derived vectors are cached (None: the user cache, `user_cache_dir`).
    cache_dir: Path | None = Field(None, validation_alias="CONVERSE_CACHE_DIR")


def local_settings() -> LocalSettings:
    """The CONVERSE_LOCAL_* settings now in the environment, or a one-line error."""
    return checked_settings(LocalSettings, "CONVERSE_LOCAL_")


def local_threads(default: int) -> int:
    """CONVERSE_LOCAL_THREADS, or `default` when it is unset."""
    return local_settings().threads or default


def user_cache_dir() -> Path:
    """The user's cache folder of this project: $XDG_CACHE_HOME/converse-harness, else
    ~/.cache/converse-harness. XDG_CACHE_HOME is the desktop's convention, not a setting of the
    project, so it is read as such (CONVERSE_CACHE_DIR and CONVERSE_LLM_CACHE_DIR override)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "converse-harness"


def yaml_mapping(path: Path, what: str, hint: str) -> dict[str, Any]:
    """The YAML mapping in the regular file `path` (a `what`, e.g. "examples file"), or one
    line saying why it is not one; `hint` says what the file should be."""
    return yaml_mapping_and_text(path, what, hint)[0]


def yaml_mapping_and_text(path: Path, what: str, hint: str) -> tuple[dict[str, Any], str]:
    """`yaml_mapping`, and the file's text (to hash what was read, once)."""
    try:
        text = read_bounded(path, MAX_EXAMPLES_BYTES, what)
    except FileNotFoundError:
        raise ConverseError(f"{what} {path} not found", hint) from None
    except OSError as exc:
        raise ConverseError(f"{what} {path} cannot be read: {exc.strerror}", hint) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        where = yaml_problem(exc)
        raise ConverseError(f"{what} {path} is not valid YAML at {where}", hint) from None
    if not isinstance(data, dict):
        raise ConverseError(f"{what} {path} is not a YAML mapping", hint)
    return data, text
