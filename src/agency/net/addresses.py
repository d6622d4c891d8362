"""Which network addresses the server may reach for a visitor (SSRF rules).

Whatever a visitor names (a web page to test or to fetch) must lie on the public internet,
never on our machine or our network: `is_public_address` refuses loopback, private, link-local
(169.254.169.254, the cloud metadata service, included), shared CGNAT space, multicast,
reserved, documentation and unspecified addresses, and the IPv6 forms that carry such an IPv4
address inside (IPv4-mapped, IPv4-compatible, 6to4, Teredo, NAT64). `parse_ip_literal` reads a
host that is an address in any form a browser or resolver accepts (`2130706433`, `0177.0.0.1`,
`0x7f.1`, `[::1]`), so those are classified rather than mistaken for names, and
`resolve_public` resolves a name and refuses it when ANY of its addresses is not public (a
name with one public and one private address would let a second lookup pick the private one).
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Sequence

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
# host name -> the addresses it resolves to, as text (raise `Unresolvable` when it does not).
Resolver = Callable[[str], Awaitable[Sequence[str]]]
RESOLVE_TIMEOUT = 10.0

_V4 = ipaddress.IPv4Network
_V6 = ipaddress.IPv6Network

# Every IPv4 range that is not on the public internet (IANA special-purpose registry, RFC 6890
# and successors), plus multicast and the old 6to4 relay anycast.
_V4_NOT_PUBLIC = tuple(
    _V4(net)
    for net in (
        "0.0.0.0/8",  # "this network", 0.0.0.0 itself
        "10.0.0.0/8",  # private
        "100.64.0.0/10",  # shared address space (carrier-grade NAT)
        "127.0.0.0/8",  # loopback
        "169.254.0.0/16",  # link-local, the metadata service 169.254.169.254
        "172.16.0.0/12",  # private
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",  # documentation
        "192.88.99.0/24",  # 6to4 relay anycast (deprecated)
        "192.168.0.0/16",  # private
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation
        "203.0.113.0/24",  # documentation
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, and the broadcast 255.255.255.255
    )
)
# Global unicast IPv6 is 2000::/3; everything outside it (::, ::1, fc00::/7 unique local,
# fe80::/10 link-local, fec0::/10 site-local, ff00::/8 multicast, 100::/64 discard, the NAT64
# local-use prefix 64:ff9b:1::/48) is refused, apart from the forms that embed an IPv4 address.
_V6_GLOBAL = _V6("2000::/3")
_V6_MAPPED = _V6("::ffff:0:0/96")
_V6_COMPATIBLE = _V6("::/96")
_V6_NAT64 = _V6("64:ff9b::/96")
_V6_TEREDO = _V6("2001::/32")
_V6_6TO4 = _V6("2002::/16")
_V6_NOT_PUBLIC = tuple(
    _V6(net)
    for net in (
        "2001::/23",  # IETF protocol assignments (Teredo, inside it, is judged by what it carries)
        "2001:db8::/32",  # documentation
        "3fff::/20",  # documentation
    )
)


class UnsafeAddress(Exception):
    """The host is, or resolves to, an address the server must not reach."""

    def __init__(self, host: str, address: IPAddress) -> None:
        super().__init__(f"{host} is not a public address ({address})")
        self.host = host
        self.address = address


class Unresolvable(Exception):
    """The host name has no address (or the lookup failed)."""


def _embedded_v4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address] | None:
    """The IPv4 addresses an IPv6 address carries, or None when it carries none."""
    if ip in _V6_MAPPED:
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    if ip in _V6_NAT64:
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    if ip in _V6_COMPATIBLE and int(ip) > 1:  # ::a.b.c.d (:: and ::1 are themselves)
        return [ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)]
    if ip in _V6_TEREDO:
        server, client = ip.teredo or (None, None)
        return [a for a in (server, client) if a is not None]
    if ip in _V6_6TO4:
        return [ipaddress.IPv4Address((int(ip) >> 80) & 0xFFFFFFFF)]
    return None


def is_public_address(ip: IPAddress) -> bool:
    """Whether the address is on the public internet (the only kind the server may reach)."""
    if isinstance(ip, ipaddress.IPv4Address):
        return not any(ip in net for net in _V4_NOT_PUBLIC)
    if ip.scope_id:
        return False  # a zone index names one of our own interfaces
    embedded = _embedded_v4(ip)
    if embedded is not None:
        return bool(embedded) and all(is_public_address(v4) for v4 in embedded)
    return ip in _V6_GLOBAL and not any(ip in net for net in _V6_NOT_PUBLIC)


_V4_PART = re.compile(r"0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*")


def _v4_number(part: str) -> int | None:
    if not _V4_PART.fullmatch(part):
        return None
    if part[:2].lower() == "0x":
        return int(part[2:] or "0", 16)
    if len(part) > 1 and part[0] == "0":
        return int(part, 8)
    return int(part)


def _loose_v4(text: str) -> ipaddress.IPv4Address | None:
    """IPv4 as inet_aton and browsers read it: one to four parts, each decimal, octal (a
    leading 0) or hex (0x), the last filling the remaining bytes (`0x7f.1` is 127.0.0.1)."""
    if text.endswith("."):
        text = text[:-1]  # browsers accept one trailing dot
    parts = text.split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers = [_v4_number(part) for part in parts]
    if any(n is None for n in numbers):
        return None
    values = [n for n in numbers if n is not None]
    *head, last = values
    if any(n > 255 for n in head) or last >= 256 ** (4 - len(head)):
        return None
    value = last
    for index, n in enumerate(head):
        value += n << (8 * (3 - index))
    return ipaddress.IPv4Address(value)


def parse_ip_literal(host: str) -> IPAddress | None:
    """The address `host` names when it is an IP literal in any accepted form (dotted, one
    number, octal, hex, IPv6 with or without brackets and zone); None when it is a name."""
    text = host.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        pass
    if ":" in text:
        return None
    return _loose_v4(text)


async def system_resolver(host: str) -> list[str]:
    """The addresses of `host` from the operating system's resolver (getaddrinfo)."""
    loop = asyncio.get_running_loop()
    try:
        infos = await asyncio.wait_for(
            loop.getaddrinfo(host, None, type=socket.SOCK_STREAM), RESOLVE_TIMEOUT
        )
    except (OSError, UnicodeError, TimeoutError) as exc:
        raise Unresolvable(host) from exc
    return [str(info[4][0]) for info in infos]


async def resolve_public(host: str, resolver: Resolver | None = None) -> list[IPAddress]:
    """The addresses of `host` (a name or an IP literal), all of them public; raises
    `UnsafeAddress` when any is not, `Unresolvable` when there is none."""
    literal = parse_ip_literal(host)
    if literal is not None:
        if not is_public_address(literal):
            raise UnsafeAddress(host, literal)
        return [literal]
    texts = await (resolver or system_resolver)(host.rstrip("."))
    addresses: list[IPAddress] = []
    for text in texts:
        try:
            address = ipaddress.ip_address(text)
        except ValueError as exc:
            raise Unresolvable(f"{host}: {text!r} is not an address") from exc
        if not is_public_address(address):
            raise UnsafeAddress(host, address)
        addresses.append(address)
    if not addresses:
        raise Unresolvable(host)
    return addresses
