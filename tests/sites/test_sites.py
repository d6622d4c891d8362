"""Websites: domain cleaning, creation, the user's list, export and erasure."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core.errors import ValidationFailed
from agency.modules.sites.service import websites as service
from tests.helpers.http import call, sign_up

labels = st.from_regex(r"[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?", fullmatch=True)
domains = st.builds(lambda a, b: f"{a}.{b}", labels, st.from_regex(r"[a-z]{2,6}", fullmatch=True))


@given(
    domain=domains,
    scheme=st.sampled_from(["", "http://", "https://", "HTTPS://"]),
    www=st.booleans(),
    tail=st.sampled_from(["", "/", "/path?q=1", "."]),
)
def test_clean_domain_strips_scheme_www_and_path(
    domain: str, scheme: str, www: bool, tail: str
) -> None:
    raw = f"{scheme}{'www.' if www else ''}{domain.upper()}{tail}"
    assert service.clean_domain(raw) == domain.removeprefix("www.")


@given(st.text(max_size=80))
def test_clean_domain_accepts_only_host_names(raw: str) -> None:
    try:
        cleaned = service.clean_domain(raw)
    except ValidationFailed:
        return
    assert "." in cleaned and " " not in cleaned and "/" not in cleaned
    assert service.clean_domain(cleaned) == cleaned


@pytest.mark.parametrize("raw", ["", "localhost", "http://", "exa mple.com", "-bad.com", "a.b"])
def test_clean_domain_rejects(raw: str) -> None:
    with pytest.raises(ValidationFailed):
        service.clean_domain(raw)


async def test_the_user_sees_only_their_websites(client: Any) -> None:
    _, data = await sign_up(client)
    user_id = data["user"]["id"]
    await service.create_website(user_id, "https://www.ada-shop.com/")
    await service.create_website(user_id, "ada-shop.com")  # the same site: not twice
    await service.create_website(user_id + 1000, "someone-else.com")
    status, body = await call(client, "get", "/api/sites")
    assert status == 200
    assert [(w["domain"], w["status"], w["page_speed"]) for w in body["websites"]] == [
        ("ada-shop.com", "building", None)
    ]


async def test_websites_need_a_session(client: Any) -> None:
    assert (await call(client, "get", "/api/sites"))[0] == 401


async def test_account_deletion_removes_the_websites_from_view(client: Any) -> None:
    _, data = await sign_up(client)
    await service.create_website(data["user"]["id"], "ada-shop.com")
    _, export = await call(client, "get", "/api/account/export")
    assert export["sites"][0]["domain"] == "ada-shop.com"
    await call(client, "post", "/api/account/delete", {"current_password": "correct horse"})
    assert await service.list_websites(data["user"]["id"]) == []
