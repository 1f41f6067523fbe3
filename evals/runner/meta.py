"""run.json's shape, checked when it is read: a run folder may have been edited by hand or
damaged, and a value of the wrong type must be one line naming the field, not a TypeError in
the middle of a resume or a report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from evals.runner.limits import MAX_CONCURRENCY as MAX_CONCURRENCY
from evals.runner.limits import MAX_EPOCHS as MAX_EPOCHS
from pipeline.errors import ConverseError

# Caps on the work one run may ask for: past them a run exhausts memory (every case and epoch
# is planned up front) or threads (one per case in flight) before it writes a row.


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow", strict=True)


class StoredConfig(_Loose):
    """The `config` object: what `--resume` rebuilds the run from."""

    suites: list[str]
    providers: list[str]
    variants: list[dict[str, str]]
    epochs: int = Field(ge=1, le=MAX_EPOCHS)
    concurrency: int = Field(ge=1, le=MAX_CONCURRENCY)
    use_cache: bool
    script: str | None = None
    provider_options: dict[str, dict[str, Any]] = Field(default_factory=dict)
    cassette: str | None = None
    replay: bool = False


class StoredSuite(_Loose):
    """One entry of `suite_info`."""

    name: str
    gate: dict[str, Any] | None = None


class StoredGit(_Loose):
    """The `git` object: the commit the run was made at."""

    commit: str | None = None
    dirty: bool | None = None


class StoredShard(_Loose):
    """The `shard` object of a shard's run.json: slice k of n."""

    k: int = Field(ge=1)
    n: int = Field(ge=1)


class StoredMeta(_Loose):
    """run.json."""

    config: StoredConfig
    shard: StoredShard | None = None
    suite_info: list[StoredSuite] = Field(default_factory=list)
    git: StoredGit | None = None
    created_at: str = "?"
    finished_at: str | None = None


def checked_meta(path: Path, data: dict[str, Any], error: type[ConverseError]) -> dict[str, Any]:
    """`data` (run.json's object) when every field has its type, else `error` naming the
    first wrong one."""
    try:
        StoredMeta.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise error(
            f"{path}: field {where}: {first['msg'].lower()}",
            "restore run.json from a backup, or start a new run",
        ) from None
    return data
