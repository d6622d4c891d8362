"""Read the body of an HTTP answer from a server we do not control, within limits on what it
DECODES to.

A compressed body is tiny on the wire and can be huge decoded: gzip turns 1 MB into 1 GB of
zeros, and `Content-Encoding: gzip, gzip` turns 1.8 kB into the same gigabyte. httpx decodes a
whole network chunk in one call and applies every encoding listed, so a limit counted on what
it hands back comes a gigabyte too late. Here the body is decoded step by step:

- `Content-Encoding` is read (comma-separated, in any case, over any number of header lines;
  `identity` and empty items ignored); `gzip`/`x-gzip`, `deflate` (zlib-wrapped or raw, as
  httpx and browsers accept it) and `br` are decoded, at most `MAX_ENCODINGS` stacked; anything
  else is refused (`UnsupportedEncoding`) rather than handed over undecoded;
- each step produces at most about `STEP` bytes (zlib's `decompress(data, max_length)` with
  its unconsumed tail, brotli's `process(data, output_buffer_limit=...)`), so no step holds
  more than that in memory or takes more than a bounded bit of CPU;
- the decoded bytes are counted as they come, and one past `max_bytes` raises `BodyTooLarge`
  before anything beyond the limit is handed on; every layer below (the bytes on the wire
  included) is held to the limit plus a margin for its framing, so a layer that decodes to
  nothing (empty blocks, padding) cannot keep the decoder busy either;
- a body that ends before its encoding does, or is not what its encoding says, raises
  `CorruptBody`; all three are `BodyLimitError`, for callers to turn into their own message.

`BoundedDecoder` is that decoder, with no HTTP client in it. For clients:
`bounded_transport(inner, max_bytes=...)` wraps an httpx transport, and `httpx_hooks(...)` /
`httpx2_hooks(...)` are event hooks for an httpx or httpx2 client (the openai SDK speaks
httpx2) that keep the client's own transport (and so its proxy settings from the environment).
Either way a response's stream becomes the bounded, decoded body, read lazily, handing the
event loop back after every step, and its `Content-Encoding` and (for an encoded body)
`Content-Length` headers are removed, so that the client does not decode it again. An error
is raised when the body is read, never before: a redirect's body is not read at all.
"""

from __future__ import annotations

import asyncio
import functools
import zlib
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

import brotli

if TYPE_CHECKING:
    import httpx
    import httpx2

# At most this many stacked encodings. No server means to compress twice (a second pass gains
# nothing); two happen when an application and a proxy in front of it both compress, and
# browsers read that, so two stay readable. Each layer multiplies the work per byte received
# (and a stack is how a 2 kB answer becomes a gigabyte), so more are refused.
MAX_ENCODINGS: Final = 2
# The most one decoding step produces (brotli gives up to half as much again: its output
# buffer grows in blocks). Small enough to be a fraction of a millisecond of CPU and
# nothing in memory, large enough that the steps cost nothing next to the decoding.
STEP: Final = 64 * 1024
# What we can decode, for a request's Accept-Encoding.
ACCEPT_ENCODING: Final = "gzip, deflate, br"
_CODINGS: Final = {"gzip": "gzip", "x-gzip": "gzip", "deflate": "deflate", "br": "br"}


class BodyLimitError(Exception):
    """A body refused while it was read (too large decoded, an encoding we do not decode, or
    data that is not what its encoding says)."""


class BodyTooLarge(BodyLimitError):
    """The body decodes (or its Content-Length says it is) to more than the limit."""


class UnsupportedEncoding(BodyLimitError):
    """An encoding we do not decode, or more stacked encodings than `MAX_ENCODINGS`."""


class CorruptBody(BodyLimitError):
    """The body is not valid data of its encoding, or ends before its encoding does."""


def framing_margin(max_bytes: int) -> int:
    """How much larger than the decoded limit an encoded layer may be. Compressed data is
    larger than what it decodes to only by its framing (deflate's stored blocks add 5 bytes to
    each 64 kB, gzip's header a few dozen, brotli's uncompressed meta-blocks as little), so a
    layer past the limit plus this margin cannot decode to a body within the limit."""
    return max_bytes // 64 + 64 * 1024


def parse_content_encoding(value: str, max_encodings: int = MAX_ENCODINGS) -> list[str]:
    """The encodings of a `Content-Encoding` value, in the order they are to be undone (the
    reverse of the order listed): `gzip`, `deflate` or `br`; `identity` and empty items left
    out. Raises `UnsupportedEncoding` for any other, or for more than `max_encodings`."""
    names: list[str] = []
    for item in value.split(","):
        token = item.strip().lower()
        if not token or token == "identity":
            continue
        coding = _CODINGS.get(token)
        if coding is None:
            raise UnsupportedEncoding(f"content-encoding {token[:40]!r} is not supported")
        names.append(coding)
    if len(names) > max_encodings:
        raise UnsupportedEncoding(
            f"{len(names)} stacked content-encodings (at most {max_encodings})"
        )
    names.reverse()
    return names


class _Stage(Protocol):
    def feed(self, data: bytes) -> Iterator[bytes]:
        """Decode `data`, all of it, in pieces of about `STEP` bytes at most."""
        ...

    def finish(self) -> None:
        """Raise `CorruptBody` when the data so far ends in the middle of the encoding."""
        ...


class _Zlib:
    """gzip (`wbits` 31) or deflate: zlib-wrapped (15) or raw (-15), told apart by the first
    two bytes, as a zlib header is recognisable and raw deflate data almost never looks like
    one. Data after the end of the stream is ignored, as httpx ignores it."""

    def __init__(self, coding: str, step: int) -> None:
        self.coding = coding
        self.step = step
        self.head = b""  # deflate: the first byte, until the second tells the wrapping
        self.decompressor: Any = (
            zlib.decompressobj(zlib.MAX_WBITS | 16) if coding == "gzip" else None
        )
        self.started = False
        self.ended = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        if self.ended or not data:
            return
        self.started = True
        if self.decompressor is None:
            data = self.head + data
            if len(data) < 2:
                self.head = data
                return
            self.head = b""
            self.decompressor = zlib.decompressobj(
                zlib.MAX_WBITS if _zlib_header(data) else -zlib.MAX_WBITS
            )
        pending = data
        while True:
            try:
                out = self.decompressor.decompress(pending, self.step)
            except zlib.error as exc:
                raise CorruptBody(f"{self.coding}: {exc}") from None
            left = self.decompressor.unconsumed_tail
            if out:
                yield out
            if self.decompressor.eof:
                self.ended = True
                return
            if not left and len(out) < self.step:
                return  # all the input is in, and all it gives is out
            if not out and len(left) >= len(pending):  # pragma: no cover - zlib always moves
                raise CorruptBody(f"{self.coding}: the decoder made no progress")
            pending = left

    def finish(self) -> None:
        if self.started and not self.ended:
            raise CorruptBody(f"{self.coding}: the data ends before the end of the stream")


def _zlib_header(data: bytes) -> bool:
    """A zlib header (RFC 1950): deflate, a window of at most 32 kB, the check bits right, no
    preset dictionary."""
    cmf, flg = data[0], data[1]
    return cmf & 0x0F == 8 and cmf >> 4 <= 7 and (cmf * 256 + flg) % 31 == 0 and not flg & 0x20


class _Brotli:
    """br, by brotli's own bounded output (`output_buffer_limit`): it keeps what it could not
    yet decode and gives more on calls with no new input until it can take more. Its window
    (what it keeps to refer back to) is at most 16 MB, the format's limit. Data after the end of
    the stream is corrupt, as in httpx: brotli cannot say where in a piece its stream ended."""

    def __init__(self, step: int) -> None:
        self.step = step
        self.decompressor: Any = brotli.Decompressor()
        self.started = False

    def feed(self, data: bytes) -> Iterator[bytes]:
        if not data:
            return
        if self.decompressor.is_finished():
            raise CorruptBody("br: data after the end of the stream")
        self.started = True
        pending = data
        idle = 0
        while True:
            try:
                out = self.decompressor.process(pending, output_buffer_limit=self.step)
            except brotli.error as exc:
                raise CorruptBody(f"br: {exc}") from None
            pending = b""
            if out:
                idle = 0
                yield out
            if self.decompressor.is_finished():
                return
            if not out:
                if self.decompressor.can_accept_more_data():
                    return  # all the input is in, and all it gives is out
                idle += 1
                if idle > 2:  # pragma: no cover - brotli always moves
                    raise CorruptBody("br: the decoder made no progress")

    def finish(self) -> None:
        if self.started and not self.decompressor.is_finished():
            raise CorruptBody("br: the data ends before the end of the stream")


def _stage(coding: str, step: int) -> _Stage:
    return _Brotli(step) if coding == "br" else _Zlib(coding, step)


class BoundedDecoder:
    """Decodes one body: `feed(data)` with each piece received, in order, yields its decoded
    pieces; `finish()` once the body has ended. Raises `BodyTooLarge` before the decoded body
    passes `max_bytes`, `UnsupportedEncoding` (when built) and `CorruptBody`."""

    def __init__(
        self,
        content_encoding: str,
        *,
        max_bytes: int,
        max_encodings: int = MAX_ENCODINGS,
        step: int = STEP,
    ) -> None:
        self.codings = parse_content_encoding(content_encoding, max_encodings)
        self.max_bytes = max_bytes
        self._stages = [_stage(coding, step) for coding in self.codings]
        # counts[0]: bytes received; counts[i]: what stage i-1 gave; the last: the body.
        self._counts = [0] * (len(self._stages) + 1)
        self._layer_limit = max_bytes + framing_margin(max_bytes)

    @property
    def received(self) -> int:
        return self._counts[0]

    @property
    def decoded(self) -> int:
        return self._counts[-1]

    def check_length(self, declared: str | None) -> None:
        """Raise `BodyTooLarge` at once when a `Content-Length` says the body is too large."""
        if declared is None or not declared.strip().isdigit():
            return
        if int(declared) > self._limit(0):
            raise BodyTooLarge(f"content-length {declared.strip()[:20]}")

    def feed(self, data: bytes) -> Iterator[bytes]:
        self._count(0, len(data))
        yield from self._through(0, data)

    def finish(self) -> None:
        for stage in self._stages:
            stage.finish()

    def _limit(self, index: int) -> int:
        return self.max_bytes if index == len(self._stages) else self._layer_limit

    def _count(self, index: int, size: int) -> None:
        self._counts[index] += size
        if self._counts[index] > self._limit(index):
            what = "the decoded body" if index == len(self._stages) else "an encoded layer"
            raise BodyTooLarge(f"{what} is larger than {self._limit(index)} bytes")

    def _through(self, index: int, data: bytes) -> Iterator[bytes]:
        if index == len(self._stages):
            if data:
                yield data
            return
        for piece in self._stages[index].feed(data):
            self._count(index + 1, len(piece))
            yield from self._through(index + 1, piece)


@dataclass(frozen=True)
class BodyLimits:
    max_bytes: int
    max_encodings: int = MAX_ENCODINGS


async def bounded_chunks(
    raw: AsyncIterable[bytes], content_encoding: str, content_length: str | None, limits: BodyLimits
) -> AsyncIterator[bytes]:
    """The decoded body of the `raw` bytes received, within `limits` (see `BoundedDecoder`);
    hands the event loop back after each piece, so a long body never holds it."""
    decoder = BoundedDecoder(
        content_encoding, max_bytes=limits.max_bytes, max_encodings=limits.max_encodings
    )
    decoder.check_length(content_length)
    async for data in raw:
        for piece in decoder.feed(data):
            yield piece
            await asyncio.sleep(0)
    decoder.finish()


# ---------------------------------------------------------------------------------------------
# httpx and httpx2: the same API in two packages; one thin adapter each.


def _bound(response: Any, stream_class: Any, limits: BodyLimits) -> None:
    """Replace `response`'s stream (before it is read) with its bounded, decoded body."""
    headers = response.headers
    encoding = ", ".join(headers.get_list("content-encoding", split_commas=True))
    length = headers.get("content-length")
    if "content-encoding" in headers:
        del headers["content-encoding"]
    if _encoded(encoding) and "content-length" in headers:
        del headers["content-length"]  # it counts the encoded bytes, which are not the body
    response.stream = stream_class(response.stream, encoding, length, limits)


def _encoded(content_encoding: str) -> bool:
    """True when a `Content-Encoding` value names anything but `identity`."""
    return any(
        item.strip() and item.strip().lower() != "identity" for item in content_encoding.split(",")
    )


def _bounded_stream_class(base: type[Any]) -> type[Any]:
    """A stream of `base` (httpx's or httpx2's AsyncByteStream: the clients check the class)
    that yields `inner`'s body bounded and decoded."""

    class BoundedStream(base):  # type: ignore[misc]
        def __init__(
            self, inner: Any, encoding: str, length: str | None, limits: BodyLimits
        ) -> None:
            self.inner = inner
            self.encoding = encoding
            self.length = length
            self.limits = limits

        async def __aiter__(self) -> AsyncIterator[bytes]:
            async for piece in bounded_chunks(self.inner, self.encoding, self.length, self.limits):
                yield piece

        async def aclose(self) -> None:
            await self.inner.aclose()

    return BoundedStream


@functools.cache
def _httpx_stream() -> type[httpx.AsyncByteStream]:
    import httpx

    stream: type[httpx.AsyncByteStream] = _bounded_stream_class(httpx.AsyncByteStream)
    return stream


@functools.cache
def _httpx2_stream() -> type[httpx2.AsyncByteStream]:
    import httpx2

    stream: type[httpx2.AsyncByteStream] = _bounded_stream_class(httpx2.AsyncByteStream)
    return stream


def bounded_transport(
    inner: httpx.AsyncBaseTransport, *, max_bytes: int, max_encodings: int = MAX_ENCODINGS
) -> httpx.AsyncBaseTransport:
    """An httpx transport whose responses are `inner`'s with their bodies bounded (see the
    module docstring)."""
    transport: httpx.AsyncBaseTransport = _httpx_transport()(
        inner, BodyLimits(max_bytes, max_encodings)
    )
    return transport


@functools.cache
def _httpx_transport() -> Any:
    import httpx

    class BoundedDecodingTransport(httpx.AsyncBaseTransport):
        def __init__(self, inner: httpx.AsyncBaseTransport, limits: BodyLimits) -> None:
            self.inner = inner
            self.limits = limits

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            response = await self.inner.handle_async_request(request)
            _bound(response, _httpx_stream(), self.limits)
            return response

        async def aclose(self) -> None:
            await self.inner.aclose()

    return BoundedDecodingTransport


EventHooks = dict[str, list[Callable[[Any], Awaitable[None]]]]


def httpx_hooks(*, max_bytes: int, max_encodings: int = MAX_ENCODINGS) -> EventHooks:
    """`event_hooks` for an `httpx.AsyncClient`: every response's body bounded (see the module
    docstring), and the request asks only for encodings we decode."""
    return _hooks(_httpx_stream, BodyLimits(max_bytes, max_encodings))


def httpx2_hooks(*, max_bytes: int, max_encodings: int = MAX_ENCODINGS) -> EventHooks:
    """The same as `httpx_hooks`, for an `httpx2.AsyncClient` (the openai SDK's)."""
    return _hooks(_httpx2_stream, BodyLimits(max_bytes, max_encodings))


def _hooks(stream_class: Callable[[], Any], limits: BodyLimits) -> EventHooks:
    async def ask(request: Any) -> None:
        request.headers["Accept-Encoding"] = ACCEPT_ENCODING

    async def bound(response: Any) -> None:
        _bound(response, stream_class(), limits)

    return {"request": [ask], "response": [bound]}
