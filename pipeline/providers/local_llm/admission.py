"""Which requests the embedded model decodes together.

llama.cpp decodes every active slot in one batch, so requests sent at once share each decoding
step. `Admission` lets up to `width` requests in at a time, with one exception: the first
request of a prompt prefix not yet evaluated (the classifier's taxonomy, rules and examples,
named by its template's sha256) runs alone, so that its prompt is evaluated once before any
other request of the prefix. (Measured: llama.cpp then reuses it only on the slot that ran it;
the other slots evaluate the prefix once each, docs/local-llm.md.) With `width` 1 every
request runs alone, as one lock would.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Admission:
    """Up to `width` requests at once; the first request of an unseen prefix alone."""

    def __init__(self, width: int) -> None:
        if width < 1:
            raise ValueError(f"width must be at least 1, got {width}")
        self.width = width
        self._cond = threading.Condition()
        self._running = 0
        self._solo = False
        self._warm: set[str] = set()
        # The most requests ever in at once (tests and benchmarks read it).
        self.peak = 0

    def warm(self, prefix: str) -> bool:
        """Whether a request of this prefix has already run."""
        with self._cond:
            return prefix in self._warm

    @property
    def warmed(self) -> frozenset[str]:
        """Every prefix whose first request has run."""
        with self._cond:
            return frozenset(self._warm)

    @contextmanager
    def admit(self, prefix: str | None = None) -> Iterator[None]:
        """Hold a place while the request runs; `prefix` names its stable prompt prefix."""
        with self._cond:
            while True:
                if self._solo:
                    self._cond.wait()
                elif self.width > 1 and prefix is not None and prefix not in self._warm:
                    if self._running == 0:
                        self._solo = True
                        solo = True
                        break
                    self._cond.wait()
                elif self._running < self.width:
                    solo = False
                    break
                else:
                    self._cond.wait()
            self._running += 1
            self.peak = max(self.peak, self._running)
        try:
            yield
        finally:
            with self._cond:
                self._running -= 1
                if solo:
                    self._solo = False
                    if prefix is not None:
                        self._warm.add(prefix)
                self._cond.notify_all()
