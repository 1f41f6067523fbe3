"""Every test starts and ends with no `--openai-*` values left by a command run in-process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pipeline.providers.openai_compat.settings import set_command_options


@pytest.fixture(autouse=True)
def no_command_options() -> Iterator[None]:
    set_command_options()
    yield
    set_command_options()
