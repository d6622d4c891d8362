"""Property tests for the pure security rules: client address, CSRF guard, encodings."""

from __future__ import annotations

import ipaddress

from hypothesis import given
from hypothesis import strategies as st

from agency.core.web.compression import accepted_encodings
from agency.core.web.security import CSRF_HEADER, client_address, csrf_failure, security_headers

ips = st.one_of(st.ip_addresses(v=4), st.ip_addresses(v=6)).map(str)
junk = st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=40)


@given(remote=ips, forwarded=st.lists(st.one_of(ips, junk), max_size=6))
def test_without_trusted_proxies_forwarded_for_is_ignored(
    remote: str, forwarded: list[str]
) -> None:
    assert client_address(remote, ", ".join(forwarded), 0) == remote


@given(
    client=ips,
    spoofed=st.lists(st.one_of(ips, junk), max_size=4),
    proxies=st.lists(ips, min_size=1, max_size=3),
)
def test_trusted_proxies_reveal_the_real_client_whatever_it_spoofs(
    client: str, spoofed: list[str], proxies: list[str]
) -> None:
    # The client sends any X-Forwarded-For; each trusted proxy appends the address it saw.
    seen = [*spoofed, client, *proxies[:-1]]
    header = ", ".join(s.replace(",", " ") for s in seen)
    assert client_address(proxies[-1], header, len(proxies)) == str(ipaddress.ip_address(client))


@given(
    remote=st.one_of(st.none(), ips),
    forwarded=st.one_of(st.none(), junk),
    trusted=st.integers(0, 5),
)
def test_client_address_never_fails_and_is_never_empty(
    remote: str | None, forwarded: str | None, trusted: int
) -> None:
    assert client_address(remote, forwarded, trusted)


SAFE = {CSRF_HEADER: "1", "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"}


@given(
    method=st.sampled_from(["POST", "PUT", "PATCH", "DELETE"]),
    site=st.sampled_from(["cross-site", "same-site"]),
)
def test_cross_site_state_change_is_always_refused(method: str, site: str) -> None:
    headers = {**SAFE, "Sec-Fetch-Site": site}
    assert (
        csrf_failure(method=method, path="/api/x", headers=headers, host="a.test", has_body=True)
        is not None
    )


@given(origin_host=st.from_regex(r"[a-z]{1,10}\.(test|example)", fullmatch=True))
def test_foreign_origin_is_refused(origin_host: str) -> None:
    headers = {**SAFE, "Origin": f"https://{origin_host}"}
    result = csrf_failure(
        method="POST", path="/api/x", headers=headers, host="agency.local", has_body=True
    )
    assert result == "Cross-site requests are not allowed."


def test_same_origin_json_with_header_passes() -> None:
    headers = {**SAFE, "Origin": "http://agency.local"}
    assert (
        csrf_failure(
            method="POST", path="/api/x", headers=headers, host="agency.local", has_body=True
        )
        is None
    )


def test_form_posts_are_refused_even_same_origin() -> None:
    headers = {**SAFE, "Content-Type": "application/x-www-form-urlencoded"}
    assert (
        csrf_failure(method="POST", path="/api/x", headers=headers, host="a", has_body=True)
        == "Requests must be sent as JSON."
    )


def test_reads_and_exempt_paths_are_not_checked() -> None:
    assert csrf_failure(method="GET", path="/api/x", headers={}, host="a", has_body=False) is None
    assert (
        csrf_failure(
            method="POST",
            path="/api/billing/webhook",
            headers={},
            host="a",
            has_body=True,
            exempt=["/api/billing/webhook"],
        )
        is None
    )
    assert (
        csrf_failure(
            method="POST",
            path="/api/billing/webhooks",
            headers={},
            host="a",
            has_body=True,
            exempt=["/api/billing/webhook"],
        )
        is not None
    )


def test_hsts_only_over_https() -> None:
    assert "Strict-Transport-Security" in dict(security_headers(https=True))
    assert "Strict-Transport-Security" not in dict(security_headers(https=False))


@given(st.text(max_size=80))
def test_accept_encoding_parser_never_fails(header: str) -> None:
    assert isinstance(accepted_encodings(header), set)


def test_accept_encoding_honours_q_zero() -> None:
    assert accepted_encodings("gzip, deflate, br") == {"gzip", "deflate", "br"}
    assert "br" not in accepted_encodings("br;q=0, gzip")
    assert "br" in accepted_encodings("br;q=0.5")
