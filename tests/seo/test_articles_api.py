"""The article manager's API for articles written by hand: list, search, status filter,
create, edit, preview, status changes (both databases)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.helpers.http import call, error_message, sign_up


async def new_article(client: Any, title: str, **extra: Any) -> dict[str, Any]:
    status, data = await call(client, "post", "/api/admin/articles", {"title": title, **extra})
    assert status == 201, data
    return dict(data)


async def test_an_admin_writes_edits_and_publishes_an_article(admin: Any) -> None:
    created = await new_article(
        admin,
        "Why Page Speed Matters!",
        meta_description="Slow pages lose visitors.",
        keywords=["speed", "seo"],
        content='<p onclick="x()">Hello <a href="javascript:alert(1)">me</a></p><script>1</script>',
    )
    assert created["status"] == "draft"
    assert created["slug"] == "why-page-speed-matters"
    assert created["created_by"] == admin.user_id
    assert created["published_at"] is None
    for bad in ("<script", "onclick", "javascript:"):
        assert bad not in created["content"]

    status, got = await call(admin, "get", f"/api/admin/articles/{created['id']}")
    assert status == 200 and got == created

    status, edited = await call(
        admin,
        "put",
        f"/api/admin/articles/{created['id']}",
        {
            "title": "Page speed",
            "slug": "page-speed",
            "meta_description": "New",
            "keywords": ["a"],
            "content": "<p>New</p>",
        },
    )
    assert status == 200, edited
    assert (edited["title"], edited["slug"], edited["content"]) == (
        "Page speed",
        "page-speed",
        "<p>New</p>",
    )
    assert (edited["meta_description"], edited["keywords"]) == ("New", ["a"])


async def test_a_title_is_required(admin: Any) -> None:
    status, data = await call(admin, "post", "/api/admin/articles", {"title": "   "})
    assert status == 400 and error_message(data) == "Please enter a title"
    article = await new_article(admin, "Kept")
    status, data = await call(
        admin, "put", f"/api/admin/articles/{article['id']}", {"title": "", "content": "x"}
    )
    assert status == 400 and error_message(data) == "Please enter a title"


async def test_slugs_stay_unique(admin: Any) -> None:
    first = await new_article(admin, "Same Title")
    second = await new_article(admin, "Same title")
    third = await new_article(admin, "Other", slug="same-title")
    assert [first["slug"], second["slug"], third["slug"]] == [
        "same-title",
        "same-title-2",
        "same-title-3",
    ]


async def test_list_is_newest_first_with_search_and_status_filter(admin: Any) -> None:
    alpha = await new_article(admin, "Alpha Article", slug="first-one")
    await asyncio.sleep(0.01)
    beta = await new_article(admin, "Beta Guide")
    await asyncio.sleep(0.01)
    gamma = await new_article(admin, "Gamma notes")
    await call(admin, "post", f"/api/admin/articles/{beta['id']}/publish")
    await call(admin, "post", f"/api/admin/articles/{gamma['id']}/archive")

    async def ids(query: str = "") -> list[int]:
        status, data = await call(admin, "get", "/api/admin/articles" + query)
        assert status == 200, data
        return [a["id"] for a in data["articles"]]

    assert await ids() == [gamma["id"], beta["id"], alpha["id"]]
    assert await ids("?status=") == [gamma["id"], beta["id"], alpha["id"]]
    assert await ids("?status=all") == [gamma["id"], beta["id"], alpha["id"]]
    assert await ids("?status=draft") == [alpha["id"]]
    assert await ids("?status=published") == [beta["id"]]
    assert await ids("?status=archived") == [gamma["id"]]
    assert await ids("?q=GUIDE") == [beta["id"]]  # title, any case
    assert await ids("?q=FIRST-ONE") == [alpha["id"]]  # slug, any case
    assert await ids("?q=article") == [alpha["id"]]
    assert await ids("?q=e&status=draft") == [alpha["id"]]
    assert await ids("?q=nothing-like-it") == []

    status, data = await call(admin, "get", "/api/admin/articles?status=deleted")
    assert status == 400
    assert error_message(data) == "The status must be draft, published or archived."
    status, data = await call(admin, "get", "/api/admin/articles?q=" + "x" * 201)
    assert status == 400
    status, data = await call(admin, "get", "/api/admin/articles?q=%00")
    assert status == 400


async def test_status_changes_follow_the_rules(admin: Any) -> None:
    article = await new_article(admin, "Rules")
    path = f"/api/admin/articles/{article['id']}"

    async def move(action: str) -> tuple[int, Any]:
        return await call(admin, "post", f"{path}/{action}")

    status, data = await move("draft")
    assert status == 409 and error_message(data) == "This article is already a draft."
    status, data = await move("publish")
    assert status == 200 and data["status"] == "published" and data["published_at"]
    first_published = data["published_at"]
    status, data = await move("publish")
    assert status == 409 and error_message(data) == "This article is already published."
    status, data = await move("archive")
    assert status == 200 and data["status"] == "archived"
    status, data = await move("archive")
    assert status == 409 and error_message(data) == "This article is already archived."
    status, data = await move("draft")  # back to draft from the archive
    assert status == 200 and data["status"] == "draft"
    status, data = await move("archive")  # a draft may be archived
    assert status == 200 and data["status"] == "archived"
    await asyncio.sleep(0.01)
    status, data = await move("publish")  # publish from the archive: a new published_at
    assert status == 200 and data["status"] == "published"
    assert data["published_at"] > first_published
    status, data = await move("draft")  # back to draft from published
    assert status == 200 and data["status"] == "draft"


async def test_unknown_articles_are_404(admin: Any) -> None:
    for path in (
        "/api/admin/articles/999",
        "/api/admin/articles/0",
        "/api/admin/articles/99999999999999999999",
    ):
        status, data = await call(admin, "get", path)
        assert status == 404, (path, data)
    status, _ = await call(admin, "post", "/api/admin/articles/999/publish")
    assert status == 404
    status, _ = await call(admin, "put", "/api/admin/articles/999", {"title": "x"})
    assert status == 404


async def test_preview_is_the_sanitised_body(admin: Any) -> None:
    status, data = await call(
        admin,
        "post",
        "/api/admin/articles/preview",
        {"content": '<h2>Hi</h2><img src="/a.png" alt="A" onerror="x()"><iframe src="x">'},
    )
    assert status == 200
    assert "<h2>Hi</h2>" in data["html"]
    assert 'src="/a.png"' in data["html"]
    assert "onerror" not in data["html"] and "iframe" not in data["html"]


async def test_only_admins(app: Any) -> None:
    client = app.test_client()
    assert (await call(client, "get", "/api/admin/articles"))[0] == 401
    assert (await call(client, "post", "/api/admin/articles", {"title": "x"}))[0] == 401
    await sign_up(client, "someone@example.com")
    status, data = await call(client, "get", "/api/admin/articles")
    assert status == 403 and error_message(data) == "Only admins can do this."
    assert (await call(client, "post", "/api/admin/articles", {"title": "x"}))[0] == 403
