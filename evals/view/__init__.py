"""`converse view`: a local web app for reviewing eval runs (server-rendered, loopback).

Names load on first use, so `converse view --help` does not import the web stack.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ViewError", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from evals.view.app import create_app

        return create_app
    if name == "ViewError":
        from evals.view.errors import ViewError

        return ViewError
    raise AttributeError(name)
