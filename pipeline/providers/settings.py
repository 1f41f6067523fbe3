"""Provider settings in layers: defaults < environment < `converse` options < caller options.

Claude and the OpenAI-compatible provider read their settings the same way; each declares its
fields (a frozen dataclass), the environment variable of each, and keeps the command-line
values it was given. A bad value is the one-line error every setting gives
(pipeline/settings.py, `bad_setting`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any, TypeVar

from pipeline.errors import ConverseError
from pipeline.settings import bad_setting

T = TypeVar("T")


def layered(
    cls: type[T],
    *,
    env_vars: Mapping[str, str],
    environ: Mapping[str, str],
    command_options: Mapping[str, Any],
    overrides: Mapping[str, Any],
    label: str,
    strip_text: bool = False,
) -> T:
    """`cls()` with the environment, then the command line, then `overrides` applied (None
    means not given); an unknown override or a bad number is a one-line error."""
    names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(overrides) - names)
    if unknown:
        raise ConverseError(
            f"unknown {label} option {unknown[0]!r}", f"options: {', '.join(sorted(names))}"
        )
    values: dict[str, Any] = {}
    for name, var in env_vars.items():
        raw = environ.get(var)
        if raw is not None and raw.strip():
            values[name] = _parse(cls, name, raw.strip(), var, strip_text)
    for name, value in {**command_options, **overrides}.items():
        if value is not None:
            values[name] = _parse(cls, name, value, f"option {name}", strip_text)
    return replace(cls(), **values)  # type: ignore[type-var]


_BOOLS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def _parse(cls: type[Any], name: str, value: Any, source: str, strip_text: bool) -> Any:
    kind = {f.name: f.type for f in fields(cls)}[name]
    if kind == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text not in _BOOLS:
            raise bad_setting(source, value, "it should be true or false")
        return _BOOLS[text]
    try:
        if kind in ("int", "int | None"):
            number = int(value)
            if number < 0:
                raise ValueError(value)
            return number
        if kind == "float":
            seconds = float(value)
            if seconds <= 0:
                raise ValueError(value)
            return seconds
    except (TypeError, ValueError):
        what = "a whole number ≥ 0" if kind == "int" else "a number of seconds > 0"
        raise bad_setting(source, value, f"it should be {what}") from None
    return str(value).strip() if strip_text else str(value)
