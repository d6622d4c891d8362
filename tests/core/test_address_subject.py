"""What a client address counts as in a per-address limit: an IPv6 client
by its /64 network, an IPv4 client (also written IPv4-mapped) by its address; and every
per-address limit in the code is marked as one, so none counts single IPv6 addresses."""

from __future__ import annotations

import importlib
import ipaddress
import pkgutil

from hypothesis import given
from hypothesis import strategies as st

import agency.modules
from agency.core import ratelimit
from agency.core.ratelimit import Limit, address_subject
from agency.core.web.security import client_address

ipv6 = st.integers(0, 2**128 - 1).map(ipaddress.IPv6Address)
ipv4 = st.integers(0, 2**32 - 1).map(ipaddress.IPv4Address)


@given(network=st.integers(0, 2**64 - 1), hosts=st.lists(st.integers(0, 2**64 - 1), min_size=2))
def test_all_addresses_of_one_slash_64_are_one_subject(network: int, hosts: list[int]) -> None:
    subjects = {address_subject(str(ipaddress.IPv6Address(network << 64 | h))) for h in hosts}
    if ipaddress.IPv6Address(network << 64).ipv4_mapped is None:  # ::ffff:0:0/96 is IPv4
        assert len(subjects) == 1
        [subject] = subjects
        assert ipaddress.IPv6Network(subject).prefixlen == 64


@given(a=ipv6, b=ipv6)
def test_different_slash_64s_are_different_subjects(
    a: ipaddress.IPv6Address, b: ipaddress.IPv6Address
) -> None:
    if a.ipv4_mapped is None and b.ipv4_mapped is None:
        same_network = int(a) >> 64 == int(b) >> 64
        assert (address_subject(str(a)) == address_subject(str(b))) == same_network


@given(address=ipv4)
def test_an_ipv4_client_is_its_address_however_written(address: ipaddress.IPv4Address) -> None:
    mapped = ipaddress.IPv6Address(f"::ffff:{address}")
    spellings = [str(address), f" {address} ", str(mapped), mapped.exploded, f"[{mapped}]"]
    assert {address_subject(s) for s in spellings} == {str(address)}


@given(address=ipv6)
def test_any_spelling_of_an_ipv6_address_is_one_subject(address: ipaddress.IPv6Address) -> None:
    spellings = [str(address), address.exploded, str(address).upper(), f"[{address}]"]
    assert len({address_subject(s) for s in spellings}) == 1


@given(text=st.text(max_size=80))
def test_any_text_gives_a_subject_and_never_raises(text: str) -> None:
    subject = address_subject(text)
    assert isinstance(subject, str)
    assert address_subject(subject) == subject  # a subject is its own subject


def test_the_probe_addresses_and_the_unknown_client() -> None:
    assert address_subject("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_subject("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64"
    assert address_subject("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert address_subject("fe80::1%eth0") == "fe80::/64"
    assert address_subject("::ffff:203.0.113.9") == "203.0.113.9"
    assert address_subject("203.0.113.9") == "203.0.113.9"
    assert address_subject("unknown") == "unknown"
    limit = Limit("x-ip", limit=1, window=1, per_address=True)
    assert limit.key("2001:db8:1:2::7") == limit.key("2001:db8:1:2::8") == "x-ip:2001:db8:1:2::/64"
    assert Limit("x", limit=1, window=1).key("2001:db8::7") == "x:2001:db8::7"


def test_every_per_address_limit_counts_networks() -> None:
    """Every limit on a client address (named `...-ip`, as they all are; they live in the
    modules) is `per_address`: none may count one IPv6 address at a time."""
    found: list[Limit] = []
    for info in pkgutil.walk_packages(agency.modules.__path__, "agency.modules."):
        module = importlib.import_module(info.name)
        found += [v for v in vars(module).values() if isinstance(v, Limit)]
    by_address = [limit for limit in found if limit.name.endswith("-ip")]
    assert len({limit.name for limit in by_address}) >= 8, by_address
    assert [limit.name for limit in by_address if not limit.per_address] == []
    assert ratelimit.address_subject is address_subject


@given(
    remote=st.one_of(st.none(), st.text(max_size=40), ipv6.map(str), ipv4.map(str)),
    forwarded=st.one_of(
        st.none(),
        st.text(max_size=80),
        st.lists(st.one_of(ipv6.map(str), ipv4.map(str), st.text(max_size=20)), max_size=4).map(
            ", ".join
        ),
    ),
    trusted=st.integers(0, 3),
)
def test_any_forwarded_header_gives_a_client_subject(
    remote: str | None, forwarded: str | None, trusted: int
) -> None:
    """What the request layer makes of any X-Forwarded-For, then counted: never an error."""
    subject = address_subject(client_address(remote, forwarded, trusted))
    assert isinstance(subject, str) and subject == address_subject(subject)
