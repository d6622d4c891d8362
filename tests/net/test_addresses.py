"""The address rules (`agency.net.addresses`): what the server may reach for a visitor. No DNS
traffic: every lookup goes to a stub resolver."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.net.addresses import (
    Unresolvable,
    UnsafeAddress,
    is_public_address,
    parse_ip_literal,
    resolve_public,
)

V4 = ipaddress.IPv4Address
V6 = ipaddress.IPv6Address

NOT_PUBLIC_V4 = [
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.0.2.0/24",
    "192.88.99.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "198.51.100.0/24",
    "203.0.113.0/24",
    "224.0.0.0/4",
    "240.0.0.0/4",
]
NOT_PUBLIC_V6 = [
    "::/128",
    "::1/128",
    "100::/64",
    "64:ff9b:1::/48",
    "2001:db8::/32",
    "3fff::/20",
    "fc00::/7",
    "fe80::/10",
    "fec0::/10",
    "ff00::/8",
]
V4_NETS = [ipaddress.IPv4Network(n) for n in NOT_PUBLIC_V4]


def in_net(net: str) -> st.SearchStrategy[V4 | V6]:
    network = ipaddress.ip_network(net)
    first, size = int(network.network_address), network.num_addresses
    kind = V4 if network.version == 4 else V6
    return st.integers(0, size - 1).map(lambda offset: kind(first + offset))


any_v4 = st.integers(0, 2**32 - 1).map(V4)
# First octets of which most addresses are public (the rest are filtered out, rarely).
PUBLIC_FIRST = [n for n in range(1, 224) if n not in (10, 100, 127, 169, 172, 192, 198, 203)]
public_v4 = st.builds(
    lambda first, rest: V4((first << 24) | rest),
    st.sampled_from(PUBLIC_FIRST),
    st.integers(0, 2**24 - 1),
).filter(lambda ip: not any(ip in net for net in V4_NETS))
private_v4 = st.sampled_from(NOT_PUBLIC_V4).flatmap(in_net)


@given(ip=st.sampled_from(NOT_PUBLIC_V4 + NOT_PUBLIC_V6).flatmap(in_net))
def test_every_address_of_a_refused_range_is_refused(ip: V4 | V6) -> None:
    assert not is_public_address(ip)


@given(ip=public_v4)
def test_an_ipv4_address_outside_those_ranges_is_public(ip: V4) -> None:
    assert is_public_address(ip)
    assert ip.is_global  # the standard library agrees


@pytest.mark.parametrize(
    "text",
    [
        *("127.0.0.1", "10.0.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1"),
        *("255.255.255.255", "::1", "::", "fe80::1", "fe80::1%2", "fd00:ec2::254", "ff02::1"),
    ],
)
def test_the_well_known_dangerous_addresses(text: str) -> None:
    assert not is_public_address(ipaddress.ip_address(text))


@pytest.mark.parametrize("text", ["8.8.8.8", "93.184.216.34", "2606:4700:4700::1111"])
def test_ordinary_public_addresses_pass(text: str) -> None:
    assert is_public_address(ipaddress.ip_address(text))


def embed(ip: V4, form: str) -> V6:
    value = int(ip)
    if form == "mapped":
        return V6((0xFFFF << 32) | value)
    if form == "compatible":
        return V6(value)
    if form == "nat64":
        return V6((0x64FF9B << 96) | value)
    if form == "6to4":
        return V6((0x2002 << 112) | (value << 80) | 1)
    # Teredo: 2001:0::/32, server address, flags, port, client address (both obfuscated).
    server = int(V4("65.54.227.120"))
    return V6((0x20010000 << 96) | (server << 64) | (0xFFFF << 32) | (value ^ 0xFFFFFFFF))


FORMS = ["mapped", "compatible", "nat64", "6to4", "teredo"]


@given(ip=private_v4.filter(lambda ip: int(ip) > 1), form=st.sampled_from(FORMS))
def test_a_refused_ipv4_address_is_refused_inside_ipv6(ip: V4, form: str) -> None:
    assert not is_public_address(embed(ip, form))


@given(ip=public_v4, form=st.sampled_from(FORMS))
def test_a_public_ipv4_address_inside_ipv6_is_judged_by_what_it_carries(ip: V4, form: str) -> None:
    assert is_public_address(embed(ip, form))


def test_a_teredo_address_with_a_private_server_is_refused() -> None:
    teredo = V6((0x20010000 << 96) | (int(V4("10.0.0.1")) << 64) | int(V4("8.8.8.8")))
    assert not is_public_address(teredo)


# Every way of writing an IPv4 address a resolver or a browser accepts.
def spellings(ip: V4) -> list[str]:
    a, b, c, d = ip.packed
    n = int(ip)
    return [
        str(ip),
        str(n),
        hex(n),
        f"0{n:o}",
        f"{a}.{(b << 16) | (c << 8) | d}",
        f"{a}.{b}.{(c << 8) | d}",
        f"0x{a:x}.0x{b:x}.0x{c:x}.0x{d:x}",
        f"0{a:o}.0{b:o}.0{c:o}.0{d:o}",
        f"0x{a:X}.{b}.0{c:o}.{d}",
        f"{ip}.",
    ]


@given(ip=any_v4)
def test_every_spelling_of_an_ipv4_address_is_read_as_that_address(ip: V4) -> None:
    for text in spellings(ip):
        assert parse_ip_literal(text) == ip, text
        assert parse_ip_literal(f" {text} ") == ip


@given(ip=st.integers(0, 2**128 - 1).map(V6))
def test_ipv6_literals_with_and_without_brackets(ip: V6) -> None:
    assert parse_ip_literal(str(ip)) == ip
    assert parse_ip_literal(f"[{ip}]") == ip
    assert parse_ip_literal(ip.exploded) == ip


@pytest.mark.parametrize(
    ("text", "address"),
    [
        *[("2130706433", "127.0.0.1"), ("0177.0.0.1", "127.0.0.1"), ("0x7f.1", "127.0.0.1")],
        *[("0x7f000001", "127.0.0.1"), ("127.1", "127.0.0.1"), ("0", "0.0.0.0")],
        *[("169.254.43518", "169.254.169.254"), ("0xa9fea9fe", "169.254.169.254")],
    ],
)
def test_the_tricks_of_the_ssrf_cheat_sheets(text: str, address: str) -> None:
    assert parse_ip_literal(text) == ipaddress.ip_address(address)


@pytest.mark.parametrize(
    "text",
    [
        *("example.com", "localhost", "1.2.3.4.5", "256.1.1.1", "1.2.3.256", "1.2.65536"),
        *("08.1.1.1", "0x1g", "1..2", ".1.2", "", "[::1", "::g", "4294967296", "1.2.3.4.."),
        "a.1",
    ],
)
def test_names_and_impossible_numbers_are_not_literals(text: str) -> None:
    assert parse_ip_literal(text) is None


@given(text=st.text(max_size=40))
def test_parsing_any_text_never_fails(text: str) -> None:
    parsed = parse_ip_literal(text)
    assert parsed is None or isinstance(parsed, V4 | V6)


def stub(table: dict[str, Sequence[str]]) -> tuple[list[str], object]:
    asked: list[str] = []

    async def resolve(host: str) -> Sequence[str]:
        asked.append(host)
        if host not in table:
            raise Unresolvable(host)
        return table[host]

    return asked, resolve


@given(
    public=st.lists(public_v4, min_size=1, max_size=3),
    private=st.lists(private_v4, max_size=2),
    at=st.integers(0, 4),
)
def test_a_name_is_refused_when_any_of_its_addresses_is_not_public(
    public: list[V4], private: list[V4], at: int
) -> None:
    answer = [str(ip) for ip in public]
    for ip in private:
        answer.insert(at % (len(answer) + 1), str(ip))
    asked, resolver = stub({"site.example": answer})

    async def run() -> list[V4 | V6]:
        return await resolve_public("site.example", resolver)  # type: ignore[arg-type]

    if private:
        with pytest.raises(UnsafeAddress) as refused:
            asyncio.run(run())
        assert refused.value.address in private
    else:
        assert asyncio.run(run()) == public
    assert asked == ["site.example"]


async def test_literals_are_judged_without_a_lookup_and_failures_are_unresolvable() -> None:
    asked, resolver = stub({"empty.example": [], "odd.example": ["not-an-ip"]})
    with pytest.raises(UnsafeAddress):
        await resolve_public("0x7f.1", resolver)  # type: ignore[arg-type]
    with pytest.raises(UnsafeAddress):
        await resolve_public("[::ffff:10.0.0.1]", resolver)  # type: ignore[arg-type]
    assert await resolve_public("8.8.8.8", resolver) == [V4("8.8.8.8")]  # type: ignore[arg-type]
    assert asked == []
    for name in ("empty.example", "odd.example", "missing.example"):
        with pytest.raises(Unresolvable):
            await resolve_public(name, resolver)  # type: ignore[arg-type]


async def test_the_system_resolver_reads_getaddrinfo(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default resolver, with getaddrinfo itself stubbed (no DNS leaves the test)."""
    loop = asyncio.get_running_loop()
    answers = {
        "public.example": [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 0))],
        "sneaky.example": [
            (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 0)),
            (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("::1", 0, 0, 0)),
        ],
    }

    async def getaddrinfo(host: str, *_args: object, **_kwargs: object) -> object:
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return answers[host]

    monkeypatch.setattr(loop, "getaddrinfo", getaddrinfo)
    assert await resolve_public("public.example") == [V4("93.184.216.34")]
    with pytest.raises(UnsafeAddress):
        await resolve_public("sneaky.example")
    with pytest.raises(Unresolvable):
        await resolve_public("missing.example")
