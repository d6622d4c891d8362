"""The SSRF-safe page fetcher (`agency.net.safe_fetch`, security-and-apis.md §A3).

Two kinds of test, and no traffic off loopback:

- against a real origin on 127.0.0.1 (the customer-site fake), reached through a stub resolver
  that maps a public-looking name to 127.0.0.1, with `allow_private=True`: the connection is
  pinned to the resolved address while the Host header keeps the name; redirects, cookies, the
  size cap, the timeout, the content-type rule and the redirect limit;
- without `allow_private`, with the connection layer replaced by a recorder
  (`httpx.AsyncHTTPTransport.handle_async_request`) that answers scripted responses and notes
  the address it was asked to connect to: the SSRF corpus is refused before any connection, at
  the first request and after a redirect, and a name that resolves to a public address and then
  to a private one is looked up once and connected to at the first answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import ssl
import subprocess
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agency.net.addresses import Unresolvable
from agency.net.safe_fetch import (
    MSG_INVALID,
    MSG_NOT_HTML,
    MSG_REFUSED,
    MSG_TIMEOUT,
    MSG_TOO_LARGE,
    MSG_TOO_MANY_REDIRECTS,
    MSG_UNREACHABLE,
    USER_AGENT,
    FetchFailed,
    FetchRefused,
    decode,
    fetch_page,
)
from tests.fakes.customer_site import RICH_FACTS, CustomerSite

PUBLIC = "93.184.215.14"  # a public address: only ever "connected to" through the recorder
NAME = "www.customer-site.com"


class StubResolver:
    """name -> a list of answers, one per lookup (the last one repeats); records each name."""

    def __init__(self, table: dict[str, list[list[str]]]) -> None:
        self.table = table
        self.asked: list[str] = []

    async def __call__(self, host: str) -> Sequence[str]:
        self.asked.append(host)
        answers = self.table.get(host)
        if not answers:
            raise Unresolvable(host)
        count = sum(1 for name in self.asked if name == host)
        return answers[min(count, len(answers)) - 1]


def local(customer_site: CustomerSite, path: str) -> tuple[str, StubResolver]:
    port = customer_site.base_url.rsplit(":", 1)[1]
    return f"http://{NAME}:{port}{path}", StubResolver({NAME: [["127.0.0.1"]]})


# ---------------------------------------------------------------------------------------------
# A real origin on loopback (allow_private, stub resolver)


async def test_a_page_is_fetched_at_the_checked_address_with_the_name_as_host(
    customer_site: CustomerSite,
) -> None:
    url, resolver = local(customer_site, "/")
    customer_site.requests.clear()
    page = await fetch_page(url, resolver=resolver, allow_private=True)
    assert page.status == 200 and page.final_url == url and page.redirects == ()
    assert page.content_type.startswith("text/html")
    assert str(RICH_FACTS["title"]) in page.html
    [seen] = customer_site.requests
    assert seen.headers["Host"] == url.split("/")[2]
    assert seen.headers["User-Agent"] == USER_AGENT and "Mozilla/5.0" in USER_AGENT
    assert "Cookie" not in seen.headers
    assert resolver.asked == [NAME]


async def test_redirects_are_followed_by_hand_without_cookies(customer_site: CustomerSite) -> None:
    url, resolver = local(customer_site, "/redirect/3")
    customer_site.requests.clear()
    page = await fetch_page(url, resolver=resolver, allow_private=True)
    base = url.rsplit("/redirect/3", 1)[0]
    assert page.final_url == f"{base}/"
    assert page.redirects == (f"{base}/redirect/3", f"{base}/redirect/2", f"{base}/redirect/1")
    assert customer_site.paths() == ["/redirect/3", "/redirect/2", "/redirect/1", "/"]
    # Every hop set a cookie; none was sent back.
    assert all("Cookie" not in r.headers for r in customer_site.requests)
    assert resolver.asked == [NAME] * 4  # each hop checked again


async def test_five_redirects_are_followed_and_the_sixth_is_refused(
    customer_site: CustomerSite,
) -> None:
    url, resolver = local(customer_site, "/redirect/5")
    page = await fetch_page(url, resolver=resolver, allow_private=True)
    assert len(page.redirects) == 5
    url, resolver = local(customer_site, "/redirect/6")
    with pytest.raises(FetchFailed) as failed:
        await fetch_page(url, resolver=resolver, allow_private=True)
    assert failed.value.message == MSG_TOO_MANY_REDIRECTS
    url, resolver = local(customer_site, "/loop")
    with pytest.raises(FetchFailed) as failed:
        await fetch_page(url, resolver=resolver, allow_private=True)
    assert failed.value.message == MSG_TOO_MANY_REDIRECTS


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("/huge", MSG_TOO_LARGE),
        ("/data.json", MSG_NOT_HTML),
        ("/error", "The website answered with an error (HTTP 500). Please check the address."),
        ("/missing", "The website answered with an error (HTTP 404). Please check the address."),
    ],
)
async def test_pages_that_cannot_be_analysed_fail_with_a_message(
    customer_site: CustomerSite, path: str, message: str
) -> None:
    url, resolver = local(customer_site, path)
    with pytest.raises(FetchFailed) as failed:
        await fetch_page(url, resolver=resolver, allow_private=True)
    assert failed.value.message == message


async def test_the_body_is_cut_off_past_the_cap_while_streaming(
    customer_site: CustomerSite,
) -> None:
    url, resolver = local(customer_site, "/")
    with pytest.raises(FetchFailed) as failed:
        await fetch_page(url, resolver=resolver, allow_private=True, max_bytes=500)
    assert failed.value.message == MSG_TOO_LARGE


async def test_a_slow_site_times_out(customer_site: CustomerSite) -> None:
    url, resolver = local(customer_site, "/slow")
    started = asyncio.get_running_loop().time()
    with pytest.raises(FetchFailed) as failed:
        await fetch_page(url, resolver=resolver, allow_private=True, timeout=0.5)
    assert failed.value.message == MSG_TIMEOUT
    assert asyncio.get_running_loop().time() - started < 3


async def test_an_unreachable_or_unknown_site_reads_as_unreachable() -> None:
    with pytest.raises(FetchFailed) as failed:
        await fetch_page(
            "http://closed.example:1/",
            resolver=StubResolver({"closed.example": [["127.0.0.1"]]}),
            allow_private=True,
        )
    assert failed.value.message == MSG_UNREACHABLE
    with pytest.raises(FetchFailed) as failed:
        await fetch_page("https://nowhere.example/", resolver=StubResolver({}))
    assert failed.value.message == MSG_UNREACHABLE


@pytest.mark.parametrize("url", ["not a url", "/relative", "http://", "ftp://example.com/"])
async def test_what_is_not_a_web_address_is_refused(url: str) -> None:
    with pytest.raises((FetchFailed, FetchRefused)) as failed:
        await fetch_page(url, resolver=StubResolver({}))
    assert failed.value.message in (MSG_INVALID, MSG_REFUSED, MSG_UNREACHABLE)


def test_the_text_is_decoded_by_header_then_meta_then_utf8() -> None:
    assert decode("é".encode("latin-1"), "latin-1") == "é"
    assert decode(b'<meta charset="iso-8859-1"><p>\xe9', None).endswith("é")
    assert decode("é".encode(), None) == "é"
    assert decode(b"\xff", "no-such-charset") == "\ufffd"


# ---------------------------------------------------------------------------------------------
# TLS: connected to the checked address, the certificate checked for the name


def make_certificate(directory: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for `name` (openssl), and its key."""
    cert, key = directory / f"{name}.crt", directory / f"{name}.key"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            f"/CN={name}",
            "-addext",
            f"subjectAltName=DNS:{name}",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@contextlib.asynccontextmanager
async def tls_origin(cert: Path, key: Path) -> AsyncIterator[tuple[int, list[str | None]]]:
    """An HTTPS server on 127.0.0.1 answering one small page; yields its port and the SNI
    names clients sent."""
    names: list[str | None] = []
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    context.sni_callback = lambda _sock, name, _ctx: names.append(name)  # type: ignore[assignment,func-returns-value]

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            await reader.readuntil(b"\r\n\r\n")
            body = b"<title>secure</title>"
            writer.write(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: "
                + str(len(body)).encode()
                + b"\r\nConnection: close\r\n\r\n"
                + body
            )
            await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=context)
    try:
        yield server.sockets[0].getsockname()[1], names
    finally:
        server.close()
        await server.wait_closed()


async def test_tls_checks_the_name_while_connecting_to_the_checked_address(
    tmp_path: Path,
) -> None:
    cert, key = make_certificate(tmp_path, NAME)
    trust = ssl.create_default_context(cafile=str(cert))
    resolver = StubResolver({NAME: [["127.0.0.1"]], "other-name.example": [["127.0.0.1"]]})
    async with tls_origin(cert, key) as (port, names):
        page = await fetch_page(
            f"https://{NAME}:{port}/", resolver=resolver, allow_private=True, verify=trust
        )
        assert page.html == "<title>secure</title>"
        assert names == [NAME]  # SNI carried the name, not 127.0.0.1
        # The same server under another name: its certificate does not match, refused.
        with pytest.raises(FetchFailed) as failed:
            await fetch_page(
                f"https://other-name.example:{port}/",
                resolver=resolver,
                allow_private=True,
                verify=trust,
            )
        assert failed.value.message == MSG_UNREACHABLE


# ---------------------------------------------------------------------------------------------
# The connection layer replaced: nothing leaves the machine


class Recorder:
    """Stands in for the connection: notes (address connected to, Host header, SNI) and
    answers from `answers` (address -> (status, headers, body))."""

    def __init__(self) -> None:
        self.connections: list[tuple[str, str, str | None]] = []
        self.answers: dict[str, tuple[int, dict[str, str], bytes]] = {}

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        host = request.url.host
        self.connections.append(
            (host, request.headers["Host"], request.extensions.get("sni_hostname"))
        )
        status, headers, body = self.answers.get(
            host, (200, {"Content-Type": "text/html"}, b"<title>ok</title>")
        )
        return httpx.Response(status, headers=headers, content=body, request=request)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recording = Recorder()

    async def connect(_transport: httpx.AsyncHTTPTransport, request: httpx.Request) -> Any:
        return await recording(request)

    monkeypatch.setattr(httpx.AsyncHTTPTransport, "handle_async_request", connect)
    return recording


async def test_a_public_name_is_connected_to_at_its_checked_address(recorder: Recorder) -> None:
    resolver = StubResolver({"shop.example": [[PUBLIC]]})
    page = await fetch_page("https://shop.example/", resolver=resolver)
    assert page.html == "<title>ok</title>"
    assert recorder.connections == [(PUBLIC, "shop.example", "shop.example")]


async def test_a_name_that_rebinds_is_looked_up_once_and_pinned(recorder: Recorder) -> None:
    """First answer public, every later one loopback: the one lookup decides."""
    resolver = StubResolver({"rebind.example": [[PUBLIC], ["127.0.0.1"]]})
    await fetch_page("https://rebind.example/", resolver=resolver)
    assert resolver.asked == ["rebind.example"]
    assert recorder.connections == [(PUBLIC, "rebind.example", "rebind.example")]


async def test_a_redirect_to_a_name_that_rebinds_is_refused(recorder: Recorder) -> None:
    resolver = StubResolver({"rebind.example": [[PUBLIC], ["127.0.0.1"]]})
    recorder.answers[PUBLIC] = (302, {"Location": "/next"}, b"")
    with pytest.raises(FetchRefused) as refused:
        await fetch_page("http://rebind.example/", resolver=resolver)
    assert refused.value.message == MSG_REFUSED
    assert [c[0] for c in recorder.connections] == [PUBLIC]  # never to 127.0.0.1


# Hosts that are our own machine or network, as a URL's host (literals in every spelling) or
# as a name that resolves to such an address.
LITERAL_CORPUS = [
    "http://127.0.0.1/",
    "http://127.0.0.1:8000/admin",
    "http://localhost./",  # resolved below
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://100.64.0.1/",
    "http://224.0.0.1/",
    "http://0.0.0.0/",
    "http://2130706433/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://0x7f.1/",
    "http://0x7f000001/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://[64:ff9b::a00:1]/",
    "http://127.0.0.1./",
]
NAME_CORPUS = {
    "localtest.me": ["127.0.0.1"],
    "localhost": ["127.0.0.1", "::1"],
    "intranet.example": ["10.1.2.3"],
    "metadata.example": ["169.254.169.254"],
    "mixed.example": [PUBLIC, "192.168.0.10"],
    "mapped.example": ["::ffff:10.0.0.1"],
    "cgnat.example": ["100.64.1.1"],
    "multicast.example": ["239.1.1.1"],
}


@pytest.mark.parametrize("url", LITERAL_CORPUS)
async def test_our_own_addresses_are_refused_before_any_connection(
    recorder: Recorder, url: str
) -> None:
    resolver = StubResolver({"localhost": [["127.0.0.1"]]})
    with pytest.raises(FetchRefused) as refused:
        await fetch_page(url, resolver=resolver)
    assert refused.value.message == MSG_REFUSED
    assert recorder.connections == []
    assert resolver.asked in ([], ["localhost"])  # IP literals are never looked up


@pytest.mark.parametrize(("name", "answers"), sorted(NAME_CORPUS.items()))
async def test_names_pointing_at_our_network_are_refused(
    recorder: Recorder, name: str, answers: list[str]
) -> None:
    resolver = StubResolver({name: [answers]})
    for url in (f"http://{name}/", f"https://{name}./path"):
        with pytest.raises(FetchRefused):
            await fetch_page(url, resolver=resolver)
    assert recorder.connections == []


@pytest.mark.parametrize(
    "location",
    [
        "http://[::1]/",
        "http://127.0.0.1:8000/",
        "http://169.254.169.254/latest/meta-data/",
        "http://2130706433/",
        "http://localtest.me/",
        "//10.0.0.1/",
        "file:///etc/passwd",
        "gopher://shop.example/",
        "http://user:secret@shop.example/",
    ],
)
async def test_a_redirect_to_our_network_is_refused(recorder: Recorder, location: str) -> None:
    resolver = StubResolver({"shop.example": [[PUBLIC]], "localtest.me": [["127.0.0.1"]]})
    recorder.answers[PUBLIC] = (301, {"Location": location}, b"")
    with pytest.raises(FetchRefused) as refused:
        await fetch_page("https://shop.example/", resolver=resolver)
    assert refused.value.message == MSG_REFUSED
    assert [c[0] for c in recorder.connections] == [PUBLIC]


async def test_private_targets_are_reached_only_when_allowed(recorder: Recorder) -> None:
    resolver = StubResolver({"localtest.me": [["127.0.0.1"]]})
    await fetch_page("http://localtest.me/", resolver=resolver, allow_private=True)
    await fetch_page("http://2130706433/", resolver=resolver, allow_private=True)
    assert [c[:2] for c in recorder.connections] == [
        ("127.0.0.1", "localtest.me"),
        ("127.0.0.1", "2130706433"),
    ]


# ---------------------------------------------------------------------------------------------
# Hypothesis: any spelling of a non-public IPv4 address, any name resolving to one


PRIVATE_NETS = [
    ipaddress.IPv4Network(net)
    for net in (
        "127.0.0.0/8",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "169.254.0.0/16",
        "100.64.0.0/10",
        "224.0.0.0/4",
        "0.0.0.0/8",
    )
]


@st.composite
def private_v4(draw: st.DrawFn) -> ipaddress.IPv4Address:
    net = draw(st.sampled_from(PRIVATE_NETS))
    offset = draw(st.integers(0, net.num_addresses - 1))
    return net.network_address + offset


def spellings(ip: ipaddress.IPv4Address, form: int) -> str:
    value = int(ip)
    octets = list(ip.packed)
    if form == 0:
        return str(ip)
    if form == 1:
        return str(value)  # one decimal number
    if form == 2:
        return hex(value)  # one hex number
    if form == 3:
        return ".".join(f"0{o:o}" for o in octets)  # octal parts
    if form == 4:
        return f"{octets[0]}.{value & 0xFFFFFF}"  # a.b24
    if form == 5:
        return ".".join(hex(o) for o in octets)
    if form == 6:
        return f"[::ffff:{ip}]"
    return f"{ip}."  # trailing dot


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(ip=private_v4(), form=st.integers(0, 7), port=st.sampled_from(["", ":80", ":8080"]))
def test_any_spelling_of_a_private_address_is_refused(
    recorder: Recorder, ip: ipaddress.IPv4Address, form: int, port: str
) -> None:
    url = f"http://{spellings(ip, form)}{port}/"
    resolver = StubResolver({})
    with pytest.raises(FetchRefused):
        asyncio.run(fetch_page(url, resolver=resolver))
    assert recorder.connections == [] and resolver.asked == []


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(
    label=st.from_regex(r"[a-z][a-z0-9-]{0,20}[a-z0-9]", fullmatch=True),
    ip=private_v4(),
    public_too=st.booleans(),
)
def test_any_name_with_a_private_address_is_refused(
    recorder: Recorder, label: str, ip: ipaddress.IPv4Address, public_too: bool
) -> None:
    name = f"{label}.example"
    answers = [PUBLIC, str(ip)] if public_too else [str(ip)]
    with pytest.raises(FetchRefused):
        asyncio.run(fetch_page(f"https://{name}/", resolver=StubResolver({name: [answers]})))
    assert recorder.connections == []
