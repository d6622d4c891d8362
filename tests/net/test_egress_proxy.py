"""The egress proxy (`agency.net.egress_proxy`): a browser behind it reaches only allowed
addresses. Loopback only and no DNS traffic: lookups go to a stub resolver, and the injected
rule counts 127.0.0.2 as "public" and every other address (127.0.0.1 included) as not, so a
server on 127.0.0.2 stands for a public site."""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.net.addresses import IPAddress, Unresolvable
from agency.net.egress_proxy import BadRequest, EgressProxy, Target, parse_request_line

PUBLIC = ipaddress.IPv4Address("127.0.0.2")  # "public" by the injected rule


def only_127_0_0_2(ip: IPAddress) -> bool:
    return ip == PUBLIC


class StubResolver:
    NAMES = {
        "good.test": ["127.0.0.2"],
        "private.test": ["10.1.2.3"],
        "metadata.test": ["169.254.169.254"],
        "localhost": ["127.0.0.1"],
        "mixed.test": ["127.0.0.2", "127.0.0.1"],  # one allowed, one not: refused
        "v6.test": ["::1"],
        "junk.test": ["not-an-address"],
    }

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def __call__(self, host: str) -> Sequence[str]:
        self.calls.append(host)
        if host not in self.NAMES:
            raise Unresolvable(host)
        return self.NAMES[host]


class Upstream:
    """A tiny server on 127.0.0.2: echoes a tunnel's bytes, answers plain HTTP with what it
    got; `connections` counts who reached it."""

    def __init__(self) -> None:
        self.received: list[bytes] = []
        self.connections = 0
        self.port = 0

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        first = await reader.read(65536)
        self.received.append(first)
        if first.startswith(b"GET "):
            body = b"hello from 127.0.0.2"
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s"
                % (len(body), body)
            )
        else:
            writer.write(b"echo:" + first)
        await writer.drain()
        writer.close()


@pytest.fixture
async def upstream() -> AsyncIterator[Upstream]:
    up = Upstream()
    server = await asyncio.start_server(up.handle, str(PUBLIC), 0)
    up.port = server.sockets[0].getsockname()[1]
    yield up
    server.close()
    await server.wait_closed()


@pytest.fixture
async def trap() -> AsyncIterator[Upstream]:
    """A server on 127.0.0.1 (private): nothing may reach it."""
    up = Upstream()
    server = await asyncio.start_server(up.handle, "127.0.0.1", 0)
    up.port = server.sockets[0].getsockname()[1]
    yield up
    server.close()
    await server.wait_closed()


class SpyProxy(EgressProxy):
    """The proxy, with the connections it opens and its stub resolver's lookups on record."""

    def __init__(self) -> None:
        self.stub = StubResolver()
        self.connects: list[tuple[str, int]] = []
        super().__init__(allowed=only_127_0_0_2, resolver=self.stub)

    async def _connect(self, addresses: list[IPAddress], port: int) -> Any:
        self.connects.extend((str(a), port) for a in addresses)
        return await super()._connect(addresses, port)


@pytest.fixture
async def proxy() -> AsyncIterator[SpyProxy]:
    async with SpyProxy() as started:
        yield started


async def ask(proxy: EgressProxy, request: bytes, then: bytes = b"") -> bytes:
    """Send `request` to the proxy, then `then` once it answered; everything it sends back."""
    reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
    try:
        writer.write(request)
        await writer.drain()
        answer = b""
        if then:
            answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            writer.write(then)
            await writer.drain()
        return answer + await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()


REFUSED = [
    "127.0.0.1",
    "10.0.0.1",
    "[::1]",
    "169.254.169.254",
    "2130706433",  # 127.0.0.1 as one number
    "0x7f.1",
    "[::ffff:127.0.0.1]",
    "private.test",
    "metadata.test",
    "localhost",
    "mixed.test",
    "v6.test",
    "junk.test",
    "nowhere.test",  # does not resolve
]


@pytest.mark.parametrize("host", REFUSED)
async def test_connect_to_a_not_allowed_address_is_403_and_never_connects(
    proxy: SpyProxy, trap: Upstream, host: str
) -> None:
    answer = await ask(proxy, f"CONNECT {host}:{trap.port} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 403 ")
    assert proxy.connects == []
    assert trap.connections == 0
    assert proxy.refused == [host.strip("[]").lower()]


@pytest.mark.parametrize("host", REFUSED)
async def test_plain_http_to_a_not_allowed_address_is_403_and_never_connects(
    proxy: SpyProxy, trap: Upstream, host: str
) -> None:
    request = f"GET http://{host}:{trap.port}/admin HTTP/1.1\r\nHost: {host}\r\n\r\n"
    answer = await ask(proxy, request.encode())
    assert answer.startswith(b"HTTP/1.1 403 ")
    assert proxy.connects == [] and trap.connections == 0


async def test_the_default_rule_is_public_addresses_only(trap: Upstream) -> None:
    async with EgressProxy(resolver=StubResolver()) as default:
        for host in ("127.0.0.1", "127.0.0.2", "localhost", "good.test", "[::1]"):
            answer = await ask(default, f"CONNECT {host}:{trap.port} HTTP/1.1\r\n\r\n".encode())
            assert answer.startswith(b"HTTP/1.1 403 "), host
    assert trap.connections == 0


async def test_a_tunnel_goes_to_exactly_the_address_checked(
    proxy: SpyProxy, upstream: Upstream
) -> None:
    answer = await ask(
        proxy,
        f"CONNECT good.test:{upstream.port} HTTP/1.1\r\nHost: good.test\r\n\r\n".encode(),
        then=b"ping through the tunnel",
    )
    assert answer == b"HTTP/1.1 200 Connection established\r\n\r\necho:ping through the tunnel"
    assert proxy.connects == [("127.0.0.2", upstream.port)]
    assert proxy.stub.calls == ["good.test"]  # one lookup: the address checked is the one used
    assert upstream.received == [b"ping through the tunnel"]


async def test_a_tunnel_to_an_allowed_literal(proxy: SpyProxy, upstream: Upstream) -> None:
    answer = await ask(
        proxy, f"CONNECT 127.0.0.2:{upstream.port} HTTP/1.1\r\n\r\n".encode(), then=b"hi"
    )
    assert answer.endswith(b"echo:hi")
    assert proxy.stub.calls == []  # a literal is not looked up


async def test_plain_http_is_forwarded_in_origin_form_with_connection_close(
    proxy: SpyProxy, upstream: Upstream
) -> None:
    request = (
        f"GET http://good.test:{upstream.port}/page?x=1 HTTP/1.1\r\n"
        f"Host: good.test:{upstream.port}\r\nProxy-Connection: keep-alive\r\n"
        "Proxy-Authorization: Basic c2VjcmV0\r\nConnection: keep-alive\r\nAccept: */*\r\n\r\n"
    )
    answer = await ask(proxy, request.encode())
    assert answer.startswith(b"HTTP/1.1 200 OK") and answer.endswith(b"hello from 127.0.0.2")
    [sent] = upstream.received
    lines = sent.decode().split("\r\n")
    assert lines[0] == "GET /page?x=1 HTTP/1.1"
    assert f"Host: good.test:{upstream.port}" in lines and "Accept: */*" in lines
    assert "Connection: close" in lines
    assert not any(line.lower().startswith(("proxy-", "connection: keep")) for line in lines)
    assert proxy.connects == [("127.0.0.2", upstream.port)]


async def test_an_allowed_address_that_does_not_answer_is_502(
    proxy: SpyProxy, trap: Upstream
) -> None:
    # Nothing listens on 127.0.0.2 at the trap's port (it is bound on 127.0.0.1 only).
    answer = await ask(proxy, f"CONNECT 127.0.0.2:{trap.port} HTTP/1.1\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 502 ")
    assert trap.connections == 0


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET / HTTP/1.1\r\nHost: good.test\r\n\r\n",  # origin form: not a proxy request
        b"GET https://good.test/ HTTP/1.1\r\n\r\n",  # https goes through CONNECT
        b"GET http://user@127.0.0.2/ HTTP/1.1\r\n\r\n",
        b"CONNECT good.test HTTP/1.1\r\n\r\n",  # no port
        b"CONNECT good.test:0 HTTP/1.1\r\n\r\n",
        b"CONNECT good.test:70000 HTTP/1.1\r\n\r\n",
        b"CONNECT [zz]:443 HTTP/1.1\r\n\r\n",
        b"CONNECT good.test:443 HTTP/2\r\n\r\n",
        b"GET http://good.test/ HTTP/1.1\r\nno colon here\r\n\r\n",
        b"\x16\x03\x01\x02\x00\r\n\r\n",  # TLS straight at the proxy
        b"GET http://good.test/ HTTP/1.1\r\n",  # closed before the end of the head
        b"A" * 70000 + b"\r\n\r\n",
    ],
)
async def test_what_the_proxy_cannot_read_is_400(
    proxy: SpyProxy, request_bytes: bytes, upstream: Upstream
) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", proxy.port)
    writer.write(request_bytes)
    writer.write_eof()
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 400 ")
    assert proxy.connects == [] and upstream.connections == 0


def test_request_line_examples() -> None:
    assert parse_request_line("CONNECT Example.COM:443 HTTP/1.1") == Target(
        "CONNECT", "example.com", 443, ""
    )
    assert parse_request_line("CONNECT [::1]:8443 HTTP/1.1") == Target("CONNECT", "::1", 8443, "")
    assert parse_request_line("GET http://h.test HTTP/1.1") == Target("GET", "h.test", 80, "/")
    assert parse_request_line("POST http://h.test:8080/a/b?c=d#f HTTP/1.0") == Target(
        "POST", "h.test", 8080, "/a/b?c=d"
    )
    assert parse_request_line("HEAD http://[::1]/x HTTP/1.1") == Target("HEAD", "::1", 80, "/x")
    assert parse_request_line("GET http://[::1]:81?q HTTP/1.1") == Target("GET", "::1", 81, "/?q")


PIECES = st.sampled_from(
    ["CONNECT", "GET", " ", ":", "http://", "https://", "[", "]", "::1", "@", "/", "?", "#",
     "HTTP/1.1", "127.0.0.1", "h.test", "443", "0", "99999", "%", "\t", "\x00", "é"]
)  # fmt: skip


@given(st.one_of(st.text(max_size=80), st.lists(PIECES, max_size=12).map("".join)))
def test_any_request_line_parses_or_is_a_clean_bad_request(line: str) -> None:
    try:
        target = parse_request_line(line)
    except BadRequest:
        return
    assert 1 <= target.port <= 65535
    assert target.host and target.host == target.host.lower() and target.host.isascii()
    assert not any(c in target.host for c in "/@?# ")
    if target.method == "CONNECT":
        assert target.path == ""
    else:
        assert target.path.startswith("/") and " " not in target.path
