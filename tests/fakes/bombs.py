"""Compression bombs and a loopback origin that serves them.

The bombs are a gigabyte of zeros, compressed, built without ever holding the gigabyte:

- `gzip_bomb()`, `deflate_bomb()` (zlib-wrapped), `raw_deflate_bomb()`: deflate is made of
  blocks, and after a full flush the compressor starts afresh, so one compressed megabyte of
  zeros is the same block every time: the stream is that block repeated, and the end; the
  gzip or zlib framing around it carries the checksum of the whole (computed a megabyte at a
  time). About 1 MB each.
- `brotli_bomb()`: brotli at quality 1 over the zeros a megabyte at a time (0.2 s), 190 kB.
- `gzip_gzip_bomb()`: the gzip bomb gzipped again, 1.8 kB: the probe's `Content-Encoding:
  gzip, gzip`.

`BombOrigin` is an HTTP/1.1 server on 127.0.0.1, in a thread of its own, written on asyncio
streams with nothing between the bytes we choose and the socket (no framework that might
compress or set headers): every request, whatever its method and path, gets `answer` (status,
headers, body), sent in pieces, then the connection is closed.

`measure(call)` awaits a client call in the test's process and reports what it raised, the
peak of the memory it took (tracemalloc) and the longest stall of the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import gzip
import struct
import threading
import tracemalloc
import zlib
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass, field

import brotli

GIB = 1 << 30
MIB = 1 << 20
_ZEROS = bytes(MIB)


@functools.cache
def _deflate_zeros(size: int) -> bytes:
    """Raw deflate of `size` zeros (a whole number of MiB)."""
    assert size % MIB == 0
    compressor = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    block = compressor.compress(_ZEROS) + compressor.flush(zlib.Z_FULL_FLUSH)
    again = compressor.compress(_ZEROS) + compressor.flush(zlib.Z_FULL_FLUSH)
    assert again == block  # a full flush forgets the past: each MiB is the same block
    return block * (size // MIB) + compressor.flush()


def _checksum(function: str, size: int) -> int:
    value = 0 if function == "crc32" else 1
    for _ in range(size // MIB):
        value = getattr(zlib, function)(_ZEROS, value)
    return value


@functools.cache
def gzip_bomb(size: int = GIB) -> bytes:
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    trailer = struct.pack("<II", _checksum("crc32", size), size & 0xFFFFFFFF)
    return header + _deflate_zeros(size) + trailer


@functools.cache
def deflate_bomb(size: int = GIB) -> bytes:
    return b"\x78\xda" + _deflate_zeros(size) + struct.pack(">I", _checksum("adler32", size))


@functools.cache
def raw_deflate_bomb(size: int = GIB) -> bytes:
    return _deflate_zeros(size)


@functools.cache
def brotli_bomb(size: int = GIB) -> bytes:
    compressor = brotli.Compressor(quality=1)
    parts = [compressor.process(_ZEROS) for _ in range(size // MIB)]
    parts.append(compressor.finish())
    return b"".join(parts)


@functools.cache
def gzip_gzip_bomb(size: int = GIB) -> bytes:
    return gzip.compress(gzip_bomb(size), compresslevel=9)


# Content-Encoding -> the bomb, for parametrised tests.
BOMBS = {
    "gzip": gzip_bomb,
    "deflate": deflate_bomb,
    "br": brotli_bomb,
    "gzip, gzip": gzip_gzip_bomb,
}


@dataclass
class Answer:
    status: int = 200
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""
    piece: int = 16 * 1024  # sent this many bytes at a time
    pause: float = 0.0  # seconds between pieces


@dataclass
class BombOrigin:
    """Answers every request with `answer` (see the module docstring)."""

    answer: Answer = field(default_factory=Answer)
    base_url: str = ""
    requests: list[str] = field(default_factory=list)  # "METHOD /path" of each request
    sent: list[int] = field(default_factory=list)  # body bytes written for each answer

    def __post_init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    def serve_bomb(self, content_encoding: str, content_type: str, **answer: object) -> None:
        """Serve the gigabyte bomb of `content_encoding` (a key of BOMBS) as `content_type`."""
        self.answer = Answer(
            headers=[("Content-Type", content_type), ("Content-Encoding", content_encoding)],
            body=BOMBS[content_encoding](),
            **answer,  # type: ignore[arg-type]
        )

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            self.requests.append(" ".join(lines[0].split(" ")[:2]))
            length = 0
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if length:
                await reader.readexactly(length)
            answer = self.answer
            headers = [*answer.headers, ("Content-Length", str(len(answer.body)))]
            headers.append(("Connection", "close"))
            text = f"HTTP/1.1 {answer.status} Answer\r\n" + "".join(
                f"{name}: {value}\r\n" for name, value in headers
            )
            writer.write(text.encode("latin-1") + b"\r\n")
            sent = 0
            self.sent.append(0)
            for start in range(0, len(answer.body), answer.piece):
                writer.write(answer.body[start : start + answer.piece])
                await writer.drain()
                sent = min(len(answer.body), start + answer.piece)
                self.sent[-1] = sent
                if answer.pause:
                    await asyncio.sleep(answer.pause)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # the client went away: what a bounded reader does
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    def start(self) -> None:
        started = threading.Event()

        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
            port = server.sockets[0].getsockname()[1]
            self.base_url = f"http://127.0.0.1:{port}"
            started.set()
            async with server:
                await self._stop.wait()

        self._thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
        self._thread.start()
        if not started.wait(10):
            raise RuntimeError("the bomb origin did not start")

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(5)


@contextlib.contextmanager
def run_bomb_origin() -> Iterator[BombOrigin]:
    origin = BombOrigin()
    origin.start()
    try:
        yield origin
    finally:
        origin.stop()


# ---------------------------------------------------------------------------------------------
# Measuring a client while it reads a bomb, in the test's own process


@dataclass
class Measured:
    error: BaseException | None  # what the awaited call raised (None: it returned)
    peak: int  # the most bytes Python held at once during the call, over what it held before
    stall: float  # the longest the event loop went without running another task, in seconds


async def measure(call: Awaitable[object]) -> Measured:
    """Await `call` with tracemalloc on and a ticker task beside it on the same loop: the
    memory the call took at its peak, and the longest any other task had to wait."""
    gc.collect()
    loop = asyncio.get_running_loop()
    gaps: list[float] = [0.0]
    running = True

    async def tick() -> None:
        last = loop.time()
        while running:
            await asyncio.sleep(0.001)
            now = loop.time()
            gaps[0] = max(gaps[0], now - last)
            last = now

    ticker = asyncio.create_task(tick())
    await asyncio.sleep(0.01)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    error: BaseException | None = None
    try:
        await call
    except Exception as exc:
        error = exc
    finally:
        peak = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.stop()
        running = False
        await ticker
    return Measured(error, peak, gaps[0])
