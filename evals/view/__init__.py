"""`converse view`: a local web app for reviewing eval runs (server-rendered, loopback).

Names load on first use, so `converse view --help` does not import the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.lazy import lazy_exports

if TYPE_CHECKING:
    from evals.view.app import create_app
    from evals.view.errors import ViewError

__all__ = ["ViewError", "create_app"]

__getattr__ = lazy_exports(__name__, {"create_app": ".app", "ViewError": ".errors"})
