"""Names a package exports but loads on first use (PEP 562 module `__getattr__`).

A package's `__init__.py` runs for every import below it, so re-exporting a heavy module there
would make every command pay for it (the CLI's help, `memory list`, reading settings). Such a
package declares where each name lives and lets this build its `__getattr__`:

    __getattr__ = lazy_exports(__name__, {"converse": "pipeline.converse", "Store": ".engine"})

A home starting with "." is relative to the package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The `__getattr__` of `package`: each name of `homes` imported from its home module when
    first asked for; any other name an AttributeError as Python words it."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(home, package), name)

    return __getattr__


__all__ = ["lazy_exports"]
