"""The bounded body decoder (`agency.net.bounded_body`), on its own and through its
httpx and httpx2 adapters (mock transports; the clients over a real loopback origin are in
tests/net/test_bomb_clients.py and tests/speedtest/test_bomb_answers.py).

Properties: any bytes through any encoding and any stack up to the limit, fed in any pieces,
come back whole; a body that decodes past the cap raises and never hands on more than the cap;
too many stacked or unknown encodings are refused; data cut short or corrupt raises
`CorruptBody`, and nothing else ever escapes. Then the bombs (a gigabyte of zeros) stop at the
cap with the decoder's memory a fraction of it."""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from collections.abc import AsyncIterator, Iterator

import brotli
import httpx
import httpx2
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.net.bounded_body import (
    ACCEPT_ENCODING,
    MAX_ENCODINGS,
    STEP,
    BodyLimitError,
    BodyTooLarge,
    BoundedDecoder,
    CorruptBody,
    UnsupportedEncoding,
    bounded_transport,
    framing_margin,
    httpx2_hooks,
    httpx_hooks,
    parse_content_encoding,
)
from tests.fakes.bombs import BOMBS, MIB, raw_deflate_bomb

# Each coding as a header names it, with how to make it (deflate both zlib-wrapped and raw).
ENCODERS = {
    "gzip": gzip.compress,
    "x-gzip": lambda data: gzip.compress(data, compresslevel=1),
    "deflate": zlib.compress,
    "raw-deflate": lambda data: _raw_deflate(data),
    "br": lambda data: brotli.compress(data, quality=5),
}
HEADER_NAME = {"raw-deflate": "deflate"}


def _raw_deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush()


def encode(data: bytes, codings: list[str]) -> tuple[bytes, str]:
    """`data` encoded with `codings` in the order listed, and the Content-Encoding value."""
    for coding in codings:
        data = ENCODERS[coding](data)
    return data, ", ".join(HEADER_NAME.get(c, c) for c in codings)


def pieces(data: bytes, sizes: list[int]) -> Iterator[bytes]:
    """`data` cut into pieces of the `sizes` (cycled), as a network hands it over."""
    start = 0
    index = 0
    while start < len(data):
        size = sizes[index % len(sizes)] if sizes else len(data)
        yield data[start : start + size]
        start += size
        index += 1


def decode_all(
    body: bytes, encoding: str, max_bytes: int, sizes: list[int] | None = None, step: int = STEP
) -> tuple[bytes, list[bytes]]:
    """Decode `body` in `sizes` pieces; returns the body and the pieces yielded. On an error,
    the pieces yielded so far are on the exception (`.yielded`)."""
    decoder = BoundedDecoder(encoding, max_bytes=max_bytes, step=step)
    out: list[bytes] = []
    try:
        for data in pieces(body, sizes or [len(body) or 1]):
            out.extend(decoder.feed(data))
        decoder.finish()
    except BodyLimitError as exc:
        exc.yielded = out  # type: ignore[attr-defined]
        raise
    return b"".join(out), out


codings = st.sampled_from(sorted(ENCODERS))
stacks = st.lists(codings, min_size=0, max_size=MAX_ENCODINGS)
real_stacks = st.lists(codings, min_size=1, max_size=MAX_ENCODINGS)
chunk_sizes = st.lists(st.integers(1, 5000), min_size=1, max_size=5)


# ---------------------------------------------------------------------------------------------
# Properties


@given(data=st.binary(max_size=20_000), stack=stacks, sizes=chunk_sizes)
def test_any_bytes_through_any_stack_come_back_whole(
    data: bytes, stack: list[str], sizes: list[int]
) -> None:
    body, encoding = encode(data, stack)
    decoded, _ = decode_all(body, encoding, max_bytes=len(data), sizes=sizes)
    assert decoded == data


@given(
    data=st.binary(min_size=1, max_size=20_000),
    stack=stacks,
    sizes=chunk_sizes,
    step=st.sampled_from([1, 100, 4096, STEP]),
)
def test_small_steps_change_nothing_but_the_pieces(
    data: bytes, stack: list[str], sizes: list[int], step: int
) -> None:
    body, encoding = encode(data, stack)
    decoded, out = decode_all(body, encoding, max_bytes=len(data), sizes=sizes, step=step)
    assert decoded == data
    if stack and stack[0] != "br":  # zlib gives exactly the step at most (brotli: see below)
        assert max(len(piece) for piece in out) <= step


@given(
    data=st.binary(max_size=20_000) | st.integers(0, 300_000).map(bytes),
    stack=stacks,
    cap=st.integers(0, 100_000),
    sizes=chunk_sizes,
)
def test_a_body_past_the_cap_raises_and_never_hands_on_more(
    data: bytes, stack: list[str], cap: int, sizes: list[int]
) -> None:
    body, encoding = encode(data, stack)
    if len(data) <= cap:
        assert decode_all(body, encoding, max_bytes=cap, sizes=sizes)[0] == data
        return
    with pytest.raises(BodyTooLarge) as refused:
        decode_all(body, encoding, max_bytes=cap, sizes=sizes)
    handed_on = b"".join(refused.value.yielded)  # type: ignore[attr-defined]
    assert len(handed_on) <= cap
    assert data.startswith(handed_on)


@given(data=st.binary(min_size=1, max_size=5_000), stack=real_stacks, data_cut=st.data())
def test_data_cut_short_raises_corrupt_body(
    data: bytes, stack: list[str], data_cut: st.DataObject
) -> None:
    body, encoding = encode(data, stack)
    cut = data_cut.draw(st.integers(1, len(body) - 1), label="cut")
    with pytest.raises(CorruptBody):
        decode_all(body[:cut], encoding, max_bytes=len(data))


@given(garbage=st.binary(max_size=3_000), stack=real_stacks, sizes=chunk_sizes)
def test_garbage_raises_a_body_error_or_decodes_within_the_cap_and_nothing_else(
    garbage: bytes, stack: list[str], sizes: list[int]
) -> None:
    encoding = ", ".join(HEADER_NAME.get(c, c) for c in stack)
    try:
        decoded, _ = decode_all(garbage, encoding, max_bytes=10_000, sizes=sizes)
    except BodyLimitError:
        return
    assert len(decoded) <= 10_000


@given(
    items=st.lists(
        st.sampled_from(["gzip", "GZip", " x-gzip", "deflate", "BR", "identity", "", " "]),
        max_size=6,
    )
)
def test_the_header_is_read_in_any_case_and_spacing(items: list[str]) -> None:
    value = ",".join(items)
    real = [i.strip().lower() for i in items if i.strip() and i.strip().lower() != "identity"]
    if len(real) > MAX_ENCODINGS:
        with pytest.raises(UnsupportedEncoding):
            parse_content_encoding(value)
        return
    expected = ["gzip" if name == "x-gzip" else name for name in reversed(real)]
    assert parse_content_encoding(value) == expected


# ---------------------------------------------------------------------------------------------
# Cases


@pytest.mark.parametrize(
    "value",
    ["zstd", "compress", "gzip, zstd", "chunked", "gzip;q=1", "gzip, gzip, gzip", "br, br, br"],
)
def test_unknown_or_too_many_encodings_are_refused(value: str) -> None:
    with pytest.raises(UnsupportedEncoding):
        BoundedDecoder(value, max_bytes=1000)


def test_the_order_listed_is_undone_backwards() -> None:
    assert parse_content_encoding("deflate, br") == ["br", "deflate"]
    body, encoding = encode(b"hello" * 1000, ["deflate", "br"])
    assert encoding == "deflate, br"
    assert decode_all(body, encoding, max_bytes=5000)[0] == b"hello" * 1000
    with pytest.raises(CorruptBody):
        decode_all(body, "br, deflate", max_bytes=5000)


def test_an_empty_body_is_empty_whatever_its_encoding() -> None:
    for encoding in ("gzip", "deflate", "br", "gzip, br", ""):
        assert decode_all(b"", encoding, max_bytes=0)[0] == b""


def test_data_after_the_end_is_treated_as_httpx_treats_it() -> None:
    """Ignored after gzip and deflate; corrupt after br (brotli cannot say where its stream
    ended in a piece), whether it comes in the same piece or a later one."""
    for coding in ("gzip", "deflate", "raw-deflate"):
        body, encoding = encode(b"page", [coding])
        assert decode_all(body + b"trailing junk", encoding, max_bytes=4)[0] == b"page"
        assert decode_all(body + b"junk", encoding, 4, sizes=[len(body), 4])[0] == b"page"
    body = brotli.compress(b"page")
    for sizes in ([len(body) + 4], [len(body), 4]):
        with pytest.raises(CorruptBody):
            decode_all(body + b"junk", "br", max_bytes=4, sizes=sizes)


def test_a_wrong_checksum_is_corrupt() -> None:
    body = bytearray(gzip.compress(b"hello world"))
    body[-5] ^= 0xFF  # the CRC
    with pytest.raises(CorruptBody):
        decode_all(bytes(body), "gzip", max_bytes=100)
    zbody = bytearray(zlib.compress(b"hello world"))
    zbody[-1] ^= 0xFF  # the Adler-32
    with pytest.raises(CorruptBody):
        decode_all(bytes(zbody), "deflate", max_bytes=100)


def test_one_byte_of_deflate_is_corrupt_not_an_empty_body() -> None:
    with pytest.raises(CorruptBody):
        decode_all(b"\x78", "deflate", max_bytes=100)


def test_a_layer_that_decodes_to_nothing_is_bounded_too() -> None:
    """Empty stored deflate blocks: 5 bytes each, nothing decoded. The bytes received (and,
    in a stack, each layer's output) are held to the cap plus the framing margin."""
    empty_blocks = b"\x00\x00\x00\xff\xff" * 100_000  # 500 kB of nothing
    with pytest.raises(BodyTooLarge, match="encoded layer"):
        decode_all(empty_blocks, "deflate", max_bytes=1000, sizes=[4096])
    stacked = gzip.compress(empty_blocks)  # 1 kB that gzip turns into the 500 kB above
    assert len(stacked) < 2000
    with pytest.raises(BodyTooLarge, match="encoded layer"):
        decode_all(stacked, "deflate, gzip", max_bytes=1000)


def test_the_declared_length_is_checked_before_reading() -> None:
    decoder = BoundedDecoder("", max_bytes=1000)
    decoder.check_length("1000")
    decoder.check_length("not a number")
    decoder.check_length(None)
    with pytest.raises(BodyTooLarge):
        decoder.check_length("1001")
    encoded = BoundedDecoder("gzip", max_bytes=1000)
    encoded.check_length(str(1000 + framing_margin(1000)))
    with pytest.raises(BodyTooLarge):
        encoded.check_length(str(1001 + framing_margin(1000)))


@pytest.mark.parametrize("encoding", [*BOMBS, "raw deflate"])
def test_a_gigabyte_bomb_stops_at_the_cap_in_a_little_memory(encoding: str) -> None:
    cap = 2_000_000
    if encoding == "raw deflate":
        bomb, header = raw_deflate_bomb(), "deflate"
    else:
        bomb, header = BOMBS[encoding](), encoding
    tracemalloc.start()
    try:
        decoder = BoundedDecoder(header, max_bytes=cap)
        handed_on = 0
        with pytest.raises(BodyTooLarge):
            for data in pieces(bomb, [64 * 1024]):
                for piece in decoder.feed(data):
                    handed_on += len(piece)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert cap - 3 * STEP < handed_on <= cap
    assert peak < 1 * MIB, f"{peak / MIB:.1f} MiB held while decoding"


# ---------------------------------------------------------------------------------------------
# The adapters, over mock transports


class Streamed(httpx.AsyncByteStream):
    """A body that arrives in pieces, as from a network (a `content=` body would be read, and
    decoded by httpx itself, when the response is made)."""

    def __init__(self, body: bytes) -> None:
        self.body = body

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in pieces(self.body, [16 * 1024]):
            yield piece


class Streamed2(httpx2.AsyncByteStream):
    def __init__(self, body: bytes) -> None:
        self.body = body

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for piece in pieces(self.body, [16 * 1024]):
            yield piece


def answer(body: bytes, encoding: str, status: int = 200) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        headers = {"Content-Encoding": encoding, "Content-Length": str(len(body))}
        if status == 302:
            headers["Location"] = "/elsewhere"
        return httpx.Response(status, headers=headers, stream=Streamed(body))

    return httpx.MockTransport(handler)


async def test_the_transport_gives_the_decoded_body_without_the_encoding_headers() -> None:
    body, encoding = encode(b"<p>hello</p>" * 100, ["gzip", "br"])
    transport = bounded_transport(answer(body, encoding), max_bytes=1200)
    async with httpx.AsyncClient(transport=transport) as client:
        response = await client.get("http://site.test/")
    assert response.content == b"<p>hello</p>" * 100
    assert "content-encoding" not in response.headers
    assert "content-length" not in response.headers  # it counted the encoded bytes

    plain = bounded_transport(answer(b"plain", "identity"), max_bytes=5)
    async with httpx.AsyncClient(transport=plain) as client:
        response = await client.get("http://site.test/")
    assert response.content == b"plain" and response.headers["content-length"] == "5"


async def test_the_transport_refuses_when_the_body_is_read_and_not_before() -> None:
    bomb = BOMBS["gzip, gzip"]()
    async with httpx.AsyncClient(
        transport=bounded_transport(answer(bomb, "gzip, gzip"), max_bytes=10_000)
    ) as client:
        with pytest.raises(BodyTooLarge):
            await client.get("http://site.test/")
        async with client.stream("GET", "http://site.test/") as response:
            assert response.status_code == 200  # the headers are read; the body is not
            with pytest.raises(BodyTooLarge):
                await response.aread()
    # A redirect's body is never read: its encoding does not matter.
    async with httpx.AsyncClient(
        transport=bounded_transport(answer(b"junk", "zstd", status=302), max_bytes=10)
    ) as client:
        response = await client.send(httpx.Request("GET", "http://site.test/"), stream=True)
        assert response.status_code == 302
        await response.aclose()


async def test_the_httpx_hooks_bound_a_client_and_ask_only_for_what_they_decode() -> None:
    seen: list[str] = []
    body = gzip.compress(bytes(100_000))

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers["Accept-Encoding"])
        return httpx.Response(200, headers={"Content-Encoding": "gzip"}, stream=Streamed(body))

    hooks = httpx_hooks(max_bytes=100_000)
    async with httpx.AsyncClient(
        transport=httpx.MockTransport(handler), event_hooks=hooks
    ) as client:
        assert (await client.get("http://api.test/")).content == bytes(100_000)
    hooks = httpx_hooks(max_bytes=99_999)
    async with httpx.AsyncClient(
        transport=httpx.MockTransport(handler), event_hooks=hooks
    ) as client:
        with pytest.raises(BodyTooLarge):
            await client.get("http://api.test/")
    assert seen == [ACCEPT_ENCODING, ACCEPT_ENCODING]


async def test_the_httpx2_hooks_do_the_same_for_an_httpx2_client() -> None:
    body = brotli.compress(bytes(100_000))

    def handler(request: httpx2.Request) -> httpx2.Response:
        assert request.headers["Accept-Encoding"] == ACCEPT_ENCODING
        return httpx2.Response(200, headers={"Content-Encoding": "br"}, stream=Streamed2(body))

    async with httpx2.AsyncClient(
        transport=httpx2.MockTransport(handler), event_hooks=httpx2_hooks(max_bytes=100_000)
    ) as client:
        response = await client.get("http://api.test/")
        assert response.content == bytes(100_000)
        assert "content-encoding" not in response.headers
    async with httpx2.AsyncClient(
        transport=httpx2.MockTransport(handler), event_hooks=httpx2_hooks(max_bytes=1000)
    ) as client:
        with pytest.raises(BodyTooLarge):
            await client.get("http://api.test/")
