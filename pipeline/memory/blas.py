"""One BLAS thread for the products a query makes.

numpy's BLAS splits a matrix-vector product across every core; on a machine where other work
keeps the cores busy, its threads wait for each other and a 1 ms product of 10,000 vectors
takes 12 ms (measured on the 2-core build machine at load average 5). One thread is as fast
as the split when the machine is idle, and gives bit-identical results (each row's dot
product is computed the same way), so ranking does not change.
"""

from __future__ import annotations

import functools
from contextlib import AbstractContextManager
from typing import Any

from threadpoolctl import ThreadpoolController


@functools.cache
def _controller() -> ThreadpoolController:
    # Finding the loaded BLAS libraries costs milliseconds: once per process.
    return ThreadpoolController()


def one_thread() -> AbstractContextManager[Any]:
    """A context in which numpy's BLAS runs on one thread."""
    limited: AbstractContextManager[Any] = _controller().limit(limits=1, user_api="blas")
    return limited
