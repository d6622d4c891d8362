"""Serve a Quart fake (Stripe, PageSpeed, Kit) on 127.0.0.1 from a background thread, with
hypercorn: `start()` binds a free port (or the one given) and returns once the server answers;
`stop()` shuts it down; `serving(fake)` does both around a `with` block. `serve_forever()` runs
one in the foreground for `python -m tests.fakes.<name>`."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from quart import Quart

BACKLOG = 2048  # the benchmark opens a few hundred connections at once


class FakeServer:
    """A Quart app served on loopback from its own thread and event loop."""

    name = "fake"

    def __init__(self) -> None:
        self.app = Quart(self.name)
        self.base_url = ""
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None

    async def serve(self, sock: socket.socket, started: threading.Event | None = None) -> None:
        """Serve on an already bound socket until `stop` (runs in the current loop)."""
        from hypercorn.asyncio import serve
        from hypercorn.config import Config

        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        config = Config()
        config.bind = [f"fd://{sock.detach()}"]
        config.accesslog = None
        config.loglevel = "WARNING"
        config.graceful_timeout = 0.5
        config.backlog = BACKLOG
        config.keep_alive_timeout = 120

        async def mark() -> None:
            if started is not None:
                started.set()

        self.app.before_serving(mark)
        app: Any = self.app
        await serve(app, config, shutdown_trigger=self._stop.wait)

    @staticmethod
    def bind(port: int | None = None) -> socket.socket:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port or 0))
        sock.listen(BACKLOG)
        return sock

    def start(self, port: int | None = None) -> None:
        sock = self.bind(port)
        self.base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        started = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            try:
                asyncio.run(self.serve(sock, started))
            except BaseException as exc:  # pragma: no cover - reported to the starter
                failure.append(exc)
                started.set()

        self._thread = threading.Thread(target=run, name=self.name, daemon=True)
        self._thread.start()
        if not started.wait(10) or failure:
            raise RuntimeError(f"{self.name} did not start: {failure}")

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop already closed
                self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(5)
        self._loop = None
        self._thread = None

    def serve_forever(self, port: int) -> None:
        sock = self.bind(port)
        self.base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        print(f"{self.name} on {self.base_url}", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(self.serve(sock))


Fake = TypeVar("Fake", bound=FakeServer)


@contextmanager
def serving(fake: Fake, port: int | None = None) -> Iterator[Fake]:
    """Serve `fake` on 127.0.0.1 (a free port, or the one given) in a background thread for the
    `with` block."""
    fake.start(port)
    try:
        yield fake
    finally:
        fake.stop()
