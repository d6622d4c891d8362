"""A forward HTTP proxy on loopback that lets a program we run (a headless browser) reach only
public addresses (SSRF rules of `net/addresses.py`).

A browser follows redirects and loads subresources wherever a page points, so checking the
first address is not enough: a public page may redirect to http://127.0.0.1:8000/ or
http://169.254.169.254/. Started with `--proxy-server=http://127.0.0.1:PORT`, the browser
resolves nothing itself; every connection is a request to this proxy, which:

- serves `CONNECT host:port` (HTTPS and WebSocket tunnels) and absolute-form plain HTTP
  (`GET http://host:port/path HTTP/1.1`, forwarded in origin form with `Connection: close`);
- resolves the host itself and refuses with 403 when the host is an IP literal (any spelling)
  that is not allowed, or when ANY of its addresses is not (`allowed`, default
  `is_public_address`); 400 for a request it cannot read, 502 when no address answers;
- connects to the address it checked (no second lookup: a name cannot be re-pointed between
  the check and the connection).

Any port is allowed (pages use odd ones); the address decides. Nothing here names a product.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from urllib.parse import urlsplit

from agency.net.addresses import (
    IPAddress,
    Resolver,
    Unresolvable,
    is_public_address,
    parse_ip_literal,
    system_resolver,
)

log = logging.getLogger(__name__)

Allowed = Callable[[IPAddress], bool]

MAX_HEAD = 64 * 1024  # request line and headers
HEAD_TIMEOUT = 30.0
CONNECT_TIMEOUT = 10.0
CHUNK = 64 * 1024
# Hop-by-hop headers a proxy drops (RFC 9110 §7.6.1), and the proxy's own.
_HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-connection",
        "proxy-authorization",
        "proxy-authenticate",
        "te",
        "trailer",
        "upgrade",
    }
)
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_VERSION = re.compile(r"HTTP/1\.[01]")
_HOST = re.compile(r"[A-Za-z0-9._~!$&'()*+,;=%-]+")  # a reg-name (RFC 3986), no userinfo


class BadRequest(Exception):
    """A request the proxy cannot read (answered 400)."""


@dataclass(frozen=True)
class Target:
    method: str  # "CONNECT", or the HTTP method to forward
    host: str  # as asked, lower case, without brackets
    port: int
    path: str  # origin-form for plain HTTP ("/p?q"); "" for CONNECT


def _port(text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 5:
        raise BadRequest(f"bad port {text!r}")
    port = int(text)
    if not 1 <= port <= 65535:
        raise BadRequest(f"bad port {text!r}")
    return port


def _host(text: str) -> str:
    """The host of an authority: `[v6]` unbracketed, else a reg-name or IPv4 text."""
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1]
        try:
            ipaddress.IPv6Address(inner)
        except ValueError:
            raise BadRequest(f"bad IPv6 literal {text!r}") from None
        return inner.lower()
    if not text or not text.isascii() or not _HOST.fullmatch(text):
        raise BadRequest(f"bad host {text!r}")
    return text.lower()


def parse_authority(authority: str) -> tuple[str, int]:
    """`host:port` (the port required) as (host, port); raises BadRequest."""
    host, sep, port = authority.rpartition(":")
    if not sep:
        raise BadRequest(f"no port in {authority!r}")
    return _host(host), _port(port)


def parse_request_line(line: str) -> Target:
    """`CONNECT host:port HTTP/1.1` or `METHOD http://host[:port]/path HTTP/1.1`; raises
    BadRequest for anything else (origin-form, https:// absolute-form, userinfo...)."""
    parts = line.split(" ")
    if len(parts) != 3:
        raise BadRequest("request line")
    method, target, version = parts
    if not _TOKEN.fullmatch(method) or not _VERSION.fullmatch(version):
        raise BadRequest("request line")
    if method == "CONNECT":
        host, port = parse_authority(target)
        return Target("CONNECT", host, port, "")
    if not target.isascii() or not target[:7].lower() == "http://":
        raise BadRequest("not an absolute http:// URL")
    if any(c in target for c in " \t\r\n\x00") or not target.isprintable():
        raise BadRequest("bad characters in the URL")
    rest = target[7:]
    end = min((i for i in (rest.find("/"), rest.find("?"), rest.find("#")) if i >= 0), default=-1)
    authority = rest if end < 0 else rest[:end]
    if "@" in authority:
        raise BadRequest("userinfo in the URL")
    if authority.endswith("]") or ":" not in authority.rpartition("]")[2]:
        host, port = _host(authority), 80
    else:
        host, port = parse_authority(authority)
    split = urlsplit(target)
    path = (split.path or "/") + (f"?{split.query}" if split.query else "")
    return Target(method, host, port, path)


async def allowed_addresses(
    host: str, allowed: Allowed, resolver: Resolver
) -> list[IPAddress] | None:
    """The addresses of `host` when every one is allowed; None when any is not (or it has
    none). An IP literal in any spelling is judged as the address it is."""
    literal = parse_ip_literal(host)
    if literal is not None:
        return [literal] if allowed(literal) else None
    try:
        texts = await resolver(host.rstrip("."))
    except Unresolvable:
        return None
    addresses: list[IPAddress] = []
    for text in texts:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return None
        if not allowed(address):
            return None
        addresses.append(address)
    return addresses or None


class EgressProxy:
    """The proxy; `async with EgressProxy() as proxy:` then `proxy.url`."""

    def __init__(
        self,
        *,
        allowed: Allowed = is_public_address,
        resolver: Resolver | None = None,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        self.allowed = allowed
        self.resolver: Resolver = resolver or system_resolver
        self.connect_timeout = connect_timeout
        self.refused: list[str] = []  # hosts refused, for the log and tests
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.gather(*self._tasks, return_exceptions=True)
            await self._server.wait_closed()
            self._server = None

    async def __aenter__(self) -> EgressProxy:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        try:
            await self._handle(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            pass
        finally:
            if task is not None:
                self._tasks.discard(task)
            writer.close()
            with contextlib.suppress(OSError, asyncio.CancelledError):
                await writer.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(_read_head(reader), HEAD_TIMEOUT)
            line, *headers = head.decode("latin-1").split("\r\n")
            target = parse_request_line(line)
            forwarded = _forwarded_headers(headers)
        except BadRequest as exc:
            log.debug("egress proxy: bad request: %s", exc)
            await _answer(writer, 400, "Bad Request")
            return
        addresses = await allowed_addresses(target.host, self.allowed, self.resolver)
        if addresses is None:
            self.refused.append(target.host)
            log.info("egress proxy refused %s:%s (not a public address)", target.host, target.port)
            await _answer(writer, 403, "Forbidden")
            return
        upstream = await self._connect(addresses, target.port)
        if upstream is None:
            await _answer(writer, 502, "Bad Gateway")
            return
        up_reader, up_writer = upstream
        try:
            if target.method == "CONNECT":
                writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            else:
                request = f"{target.method} {target.path} HTTP/1.1\r\n"
                request += "".join(f"{h}\r\n" for h in forwarded) + "Connection: close\r\n\r\n"
                up_writer.write(request.encode("latin-1"))
            await _pipe_both(reader, writer, up_reader, up_writer)
        finally:
            up_writer.close()
            with contextlib.suppress(OSError, asyncio.CancelledError):
                await up_writer.wait_closed()

    async def _connect(
        self, addresses: list[IPAddress], port: int
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        for address in addresses:
            try:
                return await asyncio.wait_for(
                    asyncio.open_connection(str(address), port), self.connect_timeout
                )
            except (OSError, TimeoutError):
                continue
        return None


async def _read_head(reader: asyncio.StreamReader) -> bytes:
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.LimitOverrunError:
        raise BadRequest("head too large") from None
    except asyncio.IncompleteReadError:
        raise BadRequest("connection closed mid-head") from None
    if len(head) > MAX_HEAD:
        raise BadRequest("head too large")
    return head[:-4]


def _forwarded_headers(lines: list[str]) -> list[str]:
    kept = []
    for line in lines:
        name, sep, _ = line.partition(":")
        if not sep or not _TOKEN.fullmatch(name):
            raise BadRequest("header line")
        if name.lower() not in _HOP_BY_HOP:
            kept.append(line)
    return kept


async def _answer(writer: asyncio.StreamWriter, status: int, reason: str) -> None:
    body = f"{status} {reason}\n".encode()
    writer.write(
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    with contextlib.suppress(OSError):
        await writer.drain()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError):
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()


async def _pipe_both(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    up_reader: asyncio.StreamReader,
    up_writer: asyncio.StreamWriter,
) -> None:
    """Bytes both ways until the upstream side is done (then the client's connection closes:
    nothing more it sends could go anywhere but the address already checked)."""
    outbound = asyncio.create_task(_pipe(reader, up_writer))
    try:
        await _pipe(up_reader, writer)
    finally:
        outbound.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await outbound
