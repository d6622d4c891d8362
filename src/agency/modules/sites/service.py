"""Website use cases."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from agency.core.errors import ValidationFailed
from agency.modules.sites.models import BUILDING, Website
from agency.modules.sites.schemas import WebsiteOut

MSG_DOMAIN = "Please enter a valid domain (e.g., example.com)"
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_DOMAIN = re.compile(rf"^(?:{_LABEL}\.)+[a-z]{{2,63}}$")


def clean_domain(raw: str) -> str:
    """A bare host name: scheme, `www.`, path and trailing dot removed, lower-case."""
    value = raw.strip().lower()
    value = re.sub(r"^[a-z][a-z0-9+.-]*://", "", value)
    value = value.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].rstrip(".")
    value = value.removeprefix("www.")
    if len(value) > 253 or not _DOMAIN.match(value):
        raise ValidationFailed(MSG_DOMAIN, fields={"domain": MSG_DOMAIN})
    return value


def _out(site: Website) -> WebsiteOut:
    return WebsiteOut(
        id=site.id,
        domain=site.domain,
        page_speed=site.page_speed,
        status=site.status,
        created_at=site.created_at,
    )


async def create_website(user_id: int, domain: str, status: str = BUILDING) -> WebsiteOut:
    """Add a website for a user, or return the live one they already have for that domain."""
    domain = clean_domain(domain)
    existing = await Website.get_or_none(user_id=user_id, domain=domain, deleted_at=None)
    if existing is not None:
        return _out(existing)
    return _out(await Website.create(user_id=user_id, domain=domain, status=status))


async def list_websites(user_id: int) -> list[WebsiteOut]:
    """The user's websites that are not deleted, newest first."""
    sites = await Website.filter(user_id=user_id, deleted_at=None).order_by("-created_at", "-id")
    return [_out(site) for site in sites]


async def export_user(user_id: int) -> Any:
    return [site.model_dump(mode="json") for site in await list_websites(user_id)]


async def erase_user(user_id: int) -> None:
    await Website.filter(user_id=user_id, deleted_at=None).update(deleted_at=datetime.now(UTC))
    await Website.filter(user_id=user_id).update(user_id=0)  # anonymised, kept for the books
