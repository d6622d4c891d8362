"""The article manager's API for articles written by hand: list, search, status filter,
create, edit, preview, status changes (both databases)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.auth.helpers import call, error_message, sign_up

pytestmark = pytest.mark.db


async def test_an_admin_writes_edits_and_publishes_an_article(admin: Any) -> None:
    status, created = await call(
        admin,
        "post",
        "/api/admin/articles",
        {
            "title": "Why Page Speed Matters!",
            "meta_description": "Slow pages lose visitors.",
            "keywords": ["speed", "seo"],
            "content": "<p>Hello</p><script>alert(1)</script>",
        },
    )
    assert status == 201, created
    assert created["status"] == "draft"
    assert created["slug"] == "why-page-speed-matters"
    assert created["created_by"] == admin.admin_id
    assert "<script" not in created["content"]

    status, got = await call(admin, "get", f"/api/admin/articles/{created['id']}")
    assert status == 200 and got["id"] == created["id"]

    status, edited = await call(
        admin,
        "put",
        f"/api/admin/articles/{created['id']}",
        {"title": "Page speed", "slug": "page-speed", "content": "<p>New</p>"},
    )
    assert status == 200, edited
    assert (edited["title"], edited["slug"], edited["content"]) == (
        "Page speed",
        "page-speed",
        "<p>New</p>",
    )

    status, published = await call(admin, "post", f"/api/admin/articles/{created['id']}/publish")
    assert status == 200 and published["status"] == "published"
    assert published["published_at"] is not None
