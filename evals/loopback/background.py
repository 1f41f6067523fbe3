"""A loopback HTTP server served from a daemon thread: the lifecycle the Anthropic and the
OpenAI-compatible loopback servers share (start, close once, context manager)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Self


class BackgroundServer:
    """Serves `handler` on (host, port) once started; port 0 takes a free one."""

    def __init__(self, host: str, port: int, handler: type[BaseHTTPRequestHandler]) -> None:
        self._httpd = ThreadingHTTPServer((host, port), handler)
        self._httpd.daemon_threads = True
        self._httpd.block_on_close = False  # keep-alive connections must not hold up close()
        self._serving = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._close_once = threading.Lock()
        self._closed = False

    @property
    def address(self) -> str:
        """`http://host:port`."""
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> Self:
        """Start serving in the background."""
        self._serving.start()
        return self

    def close(self) -> None:
        """Stop serving and free the port (once; later calls do nothing)."""
        with self._close_once:
            if self._closed:
                return
            self._closed = True
        self._httpd.shutdown()
        self._httpd.server_close()
        if threading.current_thread() is not self._serving:
            self._serving.join()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
