"""Concurrent requests that need the same fresh read share it.

Under load, fifty requests for `/api/health` or `/api/catalogue` arrive within the time one
database round trip takes; each paid its own (on SQLite, a hop to the database thread and
back). A `Coalesced` read answers every caller with a read that *started after the caller
arrived*, so no answer is staler than its own read would have been: a caller finding no read
under way starts one; callers arriving while one is under way (it started before them, so it
may predate a change they must see) wait for the next one, which starts when the current one
ends and serves all of them together. A quiet server still makes one read per request.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Coalesced(Generic[T]):
    def __init__(self, read: Callable[[], Awaitable[T]]) -> None:
        self._read = read
        self._loop: asyncio.AbstractEventLoop | None = None
        self._running: asyncio.Future[T] | None = None
        self._next: asyncio.Future[T] | None = None

    async def __call__(self) -> T:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new event loop (tests, a restarted worker): start afresh
            self._loop, self._running, self._next = loop, None, None
        if self._running is None:
            return await asyncio.shield(self._start())
        if self._next is None:
            self._next = loop.create_future()
            self._next.add_done_callback(_consume)
        return await asyncio.shield(self._next)

    def _start(self) -> asyncio.Future[T]:
        running: asyncio.Future[T] = asyncio.ensure_future(self._read())
        self._running = running
        running.add_done_callback(_consume)  # its callers may all have gone: no "never retrieved"
        running.add_done_callback(self._finished)
        return running

    def _finished(self, done: asyncio.Future[T]) -> None:
        if done is not self._running:
            return  # a read of a previous event loop
        self._running = None
        waiting, self._next = self._next, None
        if waiting is None:
            return
        if done.get_loop().is_closed():
            return
        following = self._start()

        def hand_over(read: asyncio.Future[T]) -> None:
            if waiting.done():
                return
            if read.cancelled():
                waiting.cancel()
            elif (error := read.exception()) is not None:
                waiting.set_exception(error)
            else:
                waiting.set_result(read.result())

        following.add_done_callback(hand_over)


def _consume(future: asyncio.Future[T]) -> None:
    if not future.cancelled():
        future.exception()
