"""Memory categories, their context modes and the readers' allowlists, read from a YAML file
(pipeline/categories.yaml, or the file CONVERSE_CATEGORIES_FILE names) and checked with
pydantic, so a typo in the file is an error naming it, not a category nobody can read.

The store asks `allowed` before it runs a query for a reader: a category outside the reader's
allowlist is refused (NotAllowed), never dropped from the request in silence.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Annotated

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    model_validator,
)

from pipeline.config import paths
from pipeline.domain import Visibility
from pipeline.errors import InvalidMessage, NotAllowed

CATEGORIES_ENV = "CONVERSE_CATEGORIES_FILE"
DEFAULT_FILE = Path(__file__).resolve().parent / "categories.yaml"
_DEFAULT_NAME = str(DEFAULT_FILE)
# Who reads memory for the conversation itself (the memory block, recall).
CONVERSATION_READER = "companion"

Name = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,31}$")]


class ContextMode(StrEnum):
    """How a category reaches the conversation's prompt."""

    ALL = "all"  # every committed memory of it is in the personal memory block
    RAG = "rag"  # only when a search finds it
    NONE = "none"  # never in conversation; only memory.query naming the category


class Category(BaseModel):
    """One category and its context mode."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name
    context: ContextMode
    rag_length: int | None = Field(None, ge=1, le=1_000)
    description: str = ""


class Defaults(BaseModel):
    """The category a new memory gets when its writer names none, by engagement kind."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    personal: Name
    project: Name


class CategoryConfig(BaseModel):
    """The whole file: categories, defaults and allowlists, each name checked against the list."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    categories: tuple[Category, ...] = Field(min_length=1)
    defaults: Defaults
    allowlists: dict[Name, tuple[Name, ...]]

    @model_validator(mode="after")
    def _names_known(self) -> CategoryConfig:
        names = [c.name for c in self.categories]
        if len(set(names)) != len(names):
            raise ValueError("a category is listed twice")
        known = set(names)
        for where, name in (
            ("defaults.personal", self.defaults.personal),
            ("defaults.project", self.defaults.project),
        ):
            if name not in known:
                raise ValueError(f"{where} names {name!r}, which is not a category")
        for reader, listed in self.allowlists.items():
            for name in listed:
                if name not in known:
                    raise ValueError(f"allowlists.{reader} names {name!r}, which is not a category")
        return self

    @property
    def names(self) -> tuple[str, ...]:
        """Every category name, in file order."""
        return tuple(c.name for c in self.categories)

    def mode(self, name: str) -> ContextMode:
        """The context mode of a category; `none` for a name the file no longer lists, so a
        memory filed under a removed category is kept out of conversation, not shown."""
        return next((c.context for c in self.categories if c.name == name), ContextMode.NONE)

    def in_mode(self, *modes: ContextMode) -> tuple[str, ...]:
        """The categories in any of these context modes."""
        return tuple(c.name for c in self.categories if c.context in modes)

    def default_for(self, visibility: Visibility | str) -> str:
        """The category of a new memory in a personal engagement or a project."""
        return (
            self.defaults.personal
            if Visibility(visibility) is Visibility.PERSONAL
            else (self.defaults.project)
        )

    def checked(self, name: str) -> str:
        """A category name that exists, or an error listing those that do."""
        if name not in self.names:
            raise InvalidMessage(
                f"there is no memory category {name!r}",
                f"use one of: {', '.join(self.names)}",
            )
        return name

    def allowed(self, reader: str, requested: Iterable[str] | None) -> tuple[str, ...]:
        """The categories `reader` may read for this request: all of `requested` (each must
        exist and be on the reader's allowlist), or, when none are named, the reader's
        allowlist less the categories kept out of conversation (context `none`), which only
        a request naming them fetches."""
        if reader not in self.allowlists:
            raise NotAllowed(
                f"{reader!r} is not a memory reader",
                f"use one of: {', '.join(sorted(self.allowlists))}",
            )
        listed = self.allowlists[reader]
        if requested is None:
            return tuple(n for n in listed if self.mode(n) is not ContextMode.NONE)
        wanted = tuple(dict.fromkeys(self.checked(n) for n in requested))
        refused = [n for n in wanted if n not in listed]
        if refused:
            raise NotAllowed(
                f"reader {reader!r} may not read memory category {refused[0]!r}",
                f"{reader!r} may read: {', '.join(listed) or 'nothing'}",
            )
        return wanted


def categories_file() -> str:
    """The file in use: CONVERSE_CATEGORIES_FILE, or the one shipped with the package."""
    return paths().categories_file or _DEFAULT_NAME


def load_categories(path: Path | None = None) -> CategoryConfig:
    """The category configuration, read once per process and file (every turn asks for it:
    the memory block and recall), so a change to the file applies from the next start."""
    return _load(str(path or categories_file()))


@lru_cache(maxsize=8)
def _load(name: str) -> CategoryConfig:
    path = Path(name)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        return CategoryConfig.model_validate(data)
    except OSError:
        raise InvalidMessage(
            f"the categories file {name!r} cannot be read",
            f"check the path, or unset {CATEGORIES_ENV} for the shipped file",
        ) from None
    except yaml.YAMLError as exc:
        raise InvalidMessage(
            f"the categories file {str(path)!r} is not valid YAML ({exc.__class__.__name__})",
            "fix its syntax",
        ) from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the file"
        raise InvalidMessage(
            f"the categories file {str(path)!r} is wrong at {where}: {first['msg']}",
            "see docs/memory.md, Categories",
        ) from None
