"""Packages that load their exports on first use do it through one helper (pipeline/lazy.py):
every name of `__all__` resolves, an unknown name is an AttributeError naming it, and the
heavy module stays unloaded until a name from it is asked for."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAZY_PACKAGES = [
    "pipeline",
    "pipeline.providers",
    "pipeline.providers.claude",
    "pipeline.providers.openai_compat",
    "pipeline.store",
    "evals.view",
]
# Packages whose lazy block is still written out by hand: none.
NOT_YET: set[str] = set()


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_exported_name_resolves(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None, f"{package}.{name}"
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'nope'"):
        module.nope  # noqa: B018


def test_no_package_writes_its_own_lazy_getattr():
    hand_written = sorted(
        str(path.relative_to(ROOT))
        for top in ("pipeline", "evals")
        for path in (ROOT / top).rglob("__init__.py")
        if "def __getattr__" in path.read_text(encoding="utf-8")
    )
    assert set(hand_written) <= NOT_YET, hand_written


def test_a_name_loads_its_home_only_when_asked_for():
    code = (
        "import sys, pipeline.store as s; assert 'pipeline.store.engine' not in sys.modules; "
        "s.open_store; assert 'pipeline.store.engine' in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
