"""Fetch a web page a visitor named, safely (SSRF rules of `net/addresses.py`).

`fetch_page(url)` asks for one HTML page on the public internet the way a careful browser
would, and never reaches our own machine or network:

- only http and https, no user name or password in the address;
- the host is resolved once (`resolve_public`: an IP literal in any spelling is classified, and
  a name is refused when ANY of its addresses is not public), and the connection goes to the
  first checked address: `PinnedTransport` rewrites the request's host to that address while
  the `Host` header and TLS (SNI and the certificate check) keep the name, so a second lookup
  cannot point the connection elsewhere (DNS rebinding);
- redirects are followed by hand, at most `max_redirects`, each new address checked the same
  way; `timeout` seconds in all (the lookups included); the body is read as a stream, decoded
  step by step (`net/bounded_body.py`: gzip, deflate, br, at most two stacked) and cut off
  the moment its DECODED size passes `max_bytes`; only `text/html` and
  `application/xhtml+xml` are accepted;
- no cookie is sent, and none is kept between redirects;
- a plain browser-like User-Agent that names the program.

`allow_private=True` (only from the unsafe test setting) skips the address rule but still
resolves once and pins. Failures are `FetchRefused` (the address is not allowed) and
`FetchFailed`, each carrying a message for people. Nothing here names a module.
"""

from __future__ import annotations

import asyncio
import codecs
import functools
import re
import ssl
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit

from agency import __version__
from agency.net.addresses import (
    Resolver,
    Unresolvable,
    UnsafeAddress,
    parse_ip_literal,
    resolve_public,
    system_resolver,
)
from agency.net.bounded_body import (
    BodyLimitError,
    BodyTooLarge,
    UnsupportedEncoding,
    bounded_transport,
)

# httpx (with the rich console its command line pulls in) loads with the first fetch, not with
# the server: about 40 ms of every start, for a feature a request may never use.
if TYPE_CHECKING:
    import httpx

MSG_REFUSED: Final = "This address cannot be analysed."
MSG_UNREACHABLE: Final = (
    "Unable to access the website. Please check if the domain is correct and the website is "
    "accessible."
)
MSG_INVALID: Final = "Please enter a valid website address."
MSG_TIMEOUT: Final = "The website took too long to answer."
MSG_TOO_LARGE: Final = "The page is too large to analyse."
MSG_NOT_HTML: Final = "The address does not lead to a web page (HTML)."
MSG_TOO_MANY_REDIRECTS: Final = "The website redirects too many times."
MSG_ENCODING: Final = "The website sent the page in a compressed form that cannot be read."

USER_AGENT: Final = (
    f"Mozilla/5.0 (compatible; agency-site-audit/{__version__}; a one-page website audit)"
)
ACCEPT: Final = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
HTML_TYPES: Final = ("text/html", "application/xhtml+xml")
REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)""", re.I)


class FetchError(Exception):
    """The page could not be fetched; `message` is for people."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(detail or message)
        self.message = message


class FetchRefused(FetchError):
    """The address (or a redirect's) is on our own machine or network, or not http(s)."""


class FetchFailed(FetchError):
    """Unreachable, timed out, too large, not a web page, too many redirects, an HTTP error."""


@dataclass(frozen=True)
class FetchedPage:
    final_url: str  # the address the page came from, after redirects
    status: int
    content_type: str
    html: str
    redirects: tuple[str, ...]  # every address that redirected, in order


@functools.cache
def _pinned_transport_class() -> type[Any]:
    import httpx

    class PinnedTransport(httpx.AsyncHTTPTransport):
        """Connects to the address checked for the request's host (`pins`: host -> address),
        never to a new lookup; the Host header stays the name, TLS checks the name (SNI)."""

        def __init__(self, verify: ssl.SSLContext | bool = True) -> None:
            super().__init__(verify=verify, retries=0, http2=False, trust_env=False)
            self.pins: dict[str, str] = {}

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            host = request.url.host
            address = self.pins.get(host)
            if address is None:
                raise FetchRefused(MSG_REFUSED, f"{host} was not checked before connecting")
            if request.url.scheme == "https" and parse_ip_literal(host) is None:
                request.extensions["sni_hostname"] = host
            request.url = request.url.copy_with(host=address)
            return await super().handle_async_request(request)

    return PinnedTransport


async def check_url(
    url: httpx.URL, *, resolver: Resolver | None, allow_private: bool
) -> tuple[str, str]:
    """(host, the address to connect to) for a URL we may fetch; raises `FetchRefused` or
    `FetchFailed`."""
    if url.scheme not in ("http", "https"):
        raise FetchRefused(MSG_REFUSED, f"scheme {url.scheme!r}")
    if url.userinfo:
        raise FetchRefused(MSG_REFUSED, "a user name in the address")
    host = url.host
    if not host:
        raise FetchFailed(MSG_INVALID, "no host")
    literal = parse_ip_literal(host)
    try:
        if allow_private:
            if literal is not None:
                return host, str(literal)
            texts = await (resolver or system_resolver)(host.rstrip("."))
            if not texts:
                raise Unresolvable(host)
            return host, texts[0]
        addresses = await resolve_public(host, resolver)
    except UnsafeAddress as exc:
        raise FetchRefused(MSG_REFUSED, str(exc)) from exc
    except Unresolvable as exc:
        raise FetchFailed(MSG_UNREACHABLE, f"{host} does not resolve") from exc
    return host, str(addresses[0])


def _parse(url: str) -> httpx.URL:
    import httpx

    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        # httpx refuses some spellings of an address (`0177.0.0.1`): still an address.
        try:
            host = urlsplit(url).hostname or ""
        except ValueError:
            host = ""
        if host and parse_ip_literal(host) is not None:
            raise FetchRefused(MSG_REFUSED, f"unreadable address {url!r}") from exc
        raise FetchFailed(MSG_INVALID, f"cannot read {url!r}") from exc
    if not parsed.is_absolute_url:
        raise FetchFailed(MSG_INVALID, f"not absolute: {url!r}")
    return parsed


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def decode(body: bytes, charset: str | None) -> str:
    """The page's text: the header's charset, else a `<meta charset>` near the top, else UTF-8;
    bytes that do not fit are replaced."""
    name = charset
    if not name:
        found = _META_CHARSET.search(body[:4096])
        name = found.group(1).decode("ascii", "replace") if found else None
    try:
        codecs.lookup(name or "utf-8")
    except LookupError:
        name = None
    return body.decode(name or "utf-8", errors="replace")


async def _read(response: httpx.Response, max_bytes: int) -> bytes:
    """The body, already decoded within `max_bytes` by the bounded transport; counted here
    again, with the early Content-Length check (of a body that was not encoded: the transport
    removes the header of one that was, and checks it itself)."""
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise FetchFailed(MSG_TOO_LARGE, f"content-length {declared}")
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise FetchFailed(MSG_TOO_LARGE, f"more than {max_bytes} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def fetch_page(
    url: str,
    *,
    resolver: Resolver | None = None,
    allow_private: bool = False,
    timeout: float = 10.0,
    max_bytes: int = 2_000_000,
    max_redirects: int = 5,
    verify: ssl.SSLContext | bool = True,
) -> FetchedPage:
    """One HTML page from the public internet (see the module docstring). `verify`: the TLS
    trust (the system's certificate authorities; tests pass their own)."""
    try:
        async with asyncio.timeout(timeout):
            return await _fetch(
                _parse(url),
                resolver=resolver,
                allow_private=allow_private,
                timeout=timeout,
                max_bytes=max_bytes,
                max_redirects=max_redirects,
                verify=verify,
            )
    except TimeoutError as exc:
        raise FetchFailed(MSG_TIMEOUT, f"more than {timeout} s") from exc


async def _fetch(
    url: httpx.URL,
    *,
    resolver: Resolver | None,
    allow_private: bool,
    timeout: float,
    max_bytes: int,
    max_redirects: int,
    verify: ssl.SSLContext | bool,
) -> FetchedPage:
    import httpx

    transport = _pinned_transport_class()(verify)
    redirects: list[str] = []
    async with httpx.AsyncClient(
        transport=bounded_transport(transport, max_bytes=max_bytes),
        follow_redirects=False,
        timeout=timeout,
        trust_env=False,
    ) as client:
        while True:
            host, address = await check_url(url, resolver=resolver, allow_private=allow_private)
            transport.pins = {host: address}
            # Built by hand, not by the client: no cookie jar is consulted.
            request = httpx.Request(
                "GET",
                url,
                headers={
                    "User-Agent": USER_AGENT,
                    "Accept": ACCEPT,
                    "Accept-Language": "en;q=0.9, *;q=0.5",
                    "Accept-Encoding": "gzip, deflate",
                },
            )
            try:
                response = await client.send(request, stream=True)
            except FetchError:
                raise
            except httpx.TimeoutException as exc:
                raise FetchFailed(MSG_TIMEOUT, str(exc)) from exc
            except (httpx.HTTPError, OSError) as exc:
                raise FetchFailed(MSG_UNREACHABLE, repr(exc)) from exc
            try:
                location = response.headers.get("location")
                if response.status_code in REDIRECTS and location:
                    if len(redirects) >= max_redirects:
                        raise FetchFailed(MSG_TOO_MANY_REDIRECTS, f"after {url}")
                    redirects.append(str(url))
                    try:
                        url = url.join(location)
                    except (httpx.InvalidURL, ValueError) as exc:
                        raise FetchFailed(MSG_INVALID, f"redirect to {location!r}") from exc
                    continue
                return await _page(url, response, redirects, max_bytes)
            except BodyTooLarge as exc:
                raise FetchFailed(MSG_TOO_LARGE, str(exc)) from exc
            except UnsupportedEncoding as exc:
                raise FetchFailed(MSG_ENCODING, str(exc)) from exc
            except BodyLimitError as exc:  # CorruptBody: not what its encoding says
                raise FetchFailed(MSG_UNREACHABLE, str(exc)) from exc
            except httpx.TimeoutException as exc:
                raise FetchFailed(MSG_TIMEOUT, str(exc)) from exc
            except httpx.HTTPError as exc:
                raise FetchFailed(MSG_UNREACHABLE, repr(exc)) from exc
            finally:
                await response.aclose()


async def _page(
    url: httpx.URL, response: httpx.Response, redirects: list[str], max_bytes: int
) -> FetchedPage:
    status = response.status_code
    if status >= 400:
        raise FetchFailed(
            f"The website answered with an error (HTTP {status}). Please check the address.",
            f"HTTP {status}",
        )
    content_type = response.headers.get("content-type", "")
    if media_type(content_type) not in HTML_TYPES:
        raise FetchFailed(MSG_NOT_HTML, f"content-type {content_type!r}")
    body = await _read(response, max_bytes)
    return FetchedPage(
        final_url=str(url),
        status=status,
        content_type=content_type,
        html=decode(body, response.charset_encoding),
        redirects=tuple(redirects),
    )
