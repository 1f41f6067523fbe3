"""Versioned Jinja templates: prompts/<family>/<version>.j2, with prompts/active.yaml.

A family active.yaml does not list is active at its only version; one with several versions
and none listed is an error that asks for the line.

Rendering is strict (a missing variable is an error naming it) and returns the text with a
PromptRef, so every turn can record exactly which template sources produced its prompts.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import yaml
from jinja2 import (
    Environment,
    FileSystemLoader,
    StrictUndefined,
    Template,
    TemplateError,
    Undefined,
    UndefinedError,
)

from pipeline.config import prompts_dir
from pipeline.domain import PromptRef
from pipeline.errors import PromptError

_VERSION = re.compile(r"^v\d+[a-z0-9_-]*$")
FENCE_TAG = "untrusted"
_FENCE_TAG_RE = re.compile(rf"<\s*/?\s*{FENCE_TAG}", re.IGNORECASE)


def fence(value: object, kind: str) -> str:
    """Wrap text that people supplied so the model reads it as data, never as instructions."""
    if isinstance(value, Undefined):
        str(value)  # a StrictUndefined raises here, naming the missing variable
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=1)
    # Any spelling of the tag inside supplied text ("</untrusted>", "< / UNTRUSTED") is defused,
    # so the text can neither close its fence early nor open a new one.
    text = _FENCE_TAG_RE.sub(lambda m: "&lt;" + m.group(0)[1:], text)
    return f'<{FENCE_TAG} kind="{kind}">\n{text}\n</{FENCE_TAG}>'


@dataclass(frozen=True)
class Rendered:
    """A rendered template and the reference to its source."""

    text: str
    ref: PromptRef


@dataclass(frozen=True)
class PromptLibrary:
    """The templates under one folder, with the active version of each family."""

    root: Path
    overrides: Mapping[str, str] = field(default_factory=dict)

    def active(self) -> dict[str, str]:
        """Family -> active version, after overrides: the listed ones, then every family
        active.yaml leaves out that has exactly one version (found by a scan of the folder)."""
        listed = self._listed()
        families = self.families()
        unlisted = {
            family: versions[0]
            for family, versions in families.items()
            if family not in listed and len(versions) == 1
        }
        return self._overridden(listed | unlisted, set(listed) | set(families))

    def _listed(self) -> dict[str, str]:
        """What active.yaml lists (no scan: the path a turn takes)."""
        path = _active_path(self.root)
        try:
            data = _active_versions(path, os.stat(path).st_mtime_ns)
        except FileNotFoundError as exc:
            raise PromptError(
                f"{path} is missing", "create it: one `family: version` a line"
            ) from exc
        except yaml.YAMLError as exc:
            raise PromptError(f"{path} is not valid YAML: {exc}", "fix the file") from exc
        if data is None:
            raise PromptError(f"{path} must map families to versions", "e.g. `persona: v1`")
        return dict(data)

    def _overridden(self, versions: dict[str, str], known: set[str]) -> dict[str, str]:
        for family in self.overrides:
            if family not in known:
                raise PromptError(
                    f"unknown prompt family {family!r}",
                    f"families: {', '.join(sorted(known))}",
                )
        return versions | dict(self.overrides)

    def families(self) -> dict[str, list[str]]:
        """Every family and its versions, oldest first."""
        # os.walk rather than Path.rglob: active() scans on every call (a third of the time)
        found: dict[str, list[str]] = {}
        for folder, _dirs, files in os.walk(self.root):
            versions = sorted((f[:-3] for f in files if f.endswith(".j2")), key=_version_key)
            if versions:
                found[Path(os.path.relpath(folder, self.root)).as_posix()] = versions
        return dict(sorted(found.items()))

    def path(self, family: str, version: str) -> Path:
        """Where a version of a family lives; errors name what exists."""
        if not _VERSION.match(version):
            raise PromptError(
                f"bad prompt version {version!r} for {family}", "versions look like v1, v2"
            )
        path = self.root / family / f"{version}.j2"
        if not path.is_file():
            have = self.families().get(family)
            hint = (
                f"versions of {family}: {', '.join(have)}"
                if have
                else "see `converse prompts list`"
            )
            raise PromptError(f"no prompt {family}/{version} under {self.root}", hint)
        return path

    def source(self, family: str, version: str | None = None) -> tuple[str, PromptRef]:
        """A template's source and its reference."""
        version = version or self._active_version(family)
        located = _template_path(self.root, family, version)
        try:
            # one stat on the hot path; path() explains what is wrong when it fails
            found = os.stat(located) if located else None
        except OSError:
            found = None
        if located is None or found is None or not stat.S_ISREG(found.st_mode):
            located = str(self.path(family, version))
            found = os.stat(located)
        text, sha = _read(located, found.st_mtime_ns)
        return text, _ref(family, version, sha)

    def pinned(self) -> PromptLibrary:
        """This library with every listed family's version fixed as active.yaml names it now:
        for rendering several parts of one prompt with one read of it."""
        if self.overrides:
            self.active()  # an override of an unknown family is an error naming the known
        return replace(self, overrides=self._listed() | dict(self.overrides))

    def _active_version(self, family: str) -> str:
        pinned = self.overrides.get(family)
        if pinned is not None:
            return pinned
        listed = self._listed().get(family)
        return listed if listed is not None else self._only_version(family)

    def _only_version(self, family: str) -> str:
        """The version of a family active.yaml leaves out: its only one."""
        folder = self.root / family
        versions = sorted(
            (p.stem for p in folder.glob("*.j2") if _VERSION.match(p.stem)), key=_version_key
        )
        if len(versions) == 1:
            return versions[0]
        line = f"add `{family}: {versions[-1] if versions else 'v1'}` to {_active_path(self.root)}"
        if not versions:
            raise PromptError(f"prompt family {family!r} has no active version", line)
        raise PromptError(
            f"prompt family {family!r} has {len(versions)} versions ({', '.join(versions)}) "
            "and active.yaml names none of them",
            line,
        )

    def render(self, family: str, version: str | None = None, **variables: Any) -> Rendered:
        """Render the active (or given) version of a family."""
        source, ref = self.source(family, version)
        try:
            if all(isinstance(v, str | int | float | bool | None) for v in variables.values()):
                text = _render_plain(self.root, source, tuple(sorted(variables.items())))
            else:
                text = _compile(self.root, source).render(**variables)
        except UndefinedError as exc:
            raise PromptError(
                f"prompt {family}/{ref.version} uses a variable it was not given: {exc.message}",
                "pass it when rendering, or remove it from the template",
            ) from exc
        except TemplateError as exc:
            raise PromptError(
                f"prompt {family}/{ref.version} is invalid: {exc}", "fix the template"
            ) from exc
        return Rendered(text=text.strip(), ref=ref)

    def refs(self) -> dict[str, PromptRef]:
        """The reference of every active template, by family."""
        return {
            family: self.source(family, version)[1] for family, version in self.active().items()
        }


# File reads, parses and compiles are cached by modification time and content, so editing a
# template takes effect at once while a turn costs no disk reads or compiles.
@lru_cache(maxsize=64)
def _active_versions(path: str, _mtime_ns: int) -> dict[str, str] | None:
    # None: the file does not map families to versions; a copy is handed out by the caller.
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else None


@lru_cache(maxsize=512)
def _read(path: str, _mtime_ns: int) -> tuple[str, str]:
    text = Path(path).read_text(encoding="utf-8")
    return text, hashlib.sha256(text.encode("utf-8")).hexdigest()


# Paths as strings and references built once: a turn renders about six parts, and building
# paths and models for each cost more than reading the cached sources.
@lru_cache(maxsize=16)
def _active_path(root: Path) -> str:
    return str(root / "active.yaml")


@lru_cache(maxsize=1024)
def _template_path(root: Path, family: str, version: str) -> str | None:
    return str(root / family / f"{version}.j2") if _VERSION.match(version) else None


@lru_cache(maxsize=1024)
def _ref(family: str, version: str, sha256: str) -> PromptRef:
    return PromptRef(family=family, version=version, sha256=sha256)


@lru_cache(maxsize=512)
def _compile(root: Path, source: str) -> Template:
    return _environment(root).from_string(source)


@lru_cache(maxsize=1024)
def _render_plain(root: Path, source: str, items: tuple[tuple[str, Any], ...]) -> str:
    # Persona, context, memory block and cross-promotion repeat turn after turn with the same
    # plain inputs: render each distinct combination once.
    return _compile(root, source).render(**dict(items))


def _version_key(version: str) -> tuple[int, str]:
    digits = re.match(r"v(\d+)", version)
    return (int(digits.group(1)) if digits else 0, version)


@cache
def _environment(root: Path) -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(root)),
        undefined=StrictUndefined,
        keep_trailing_newline=False,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )
    env.filters["fence"] = fence
    env.filters["tojson_pretty"] = lambda v: json.dumps(v, ensure_ascii=False, indent=1)
    return env


def default_library(overrides: Mapping[str, str] | None = None) -> PromptLibrary:
    """The library under prompts/ (or CONVERSE_PROMPTS_DIR)."""
    return PromptLibrary(prompts_dir(), dict(overrides or {}))
