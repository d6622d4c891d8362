"""Articles written in Markdown: saved with their source and rendered (then sanitised) into the
body; the editor's preview `POST /api/admin/blog/preview` is the same rendering; AI drafts and
HTML articles stay HTML (both databases)."""

from __future__ import annotations

from typing import Any

from tests.helpers.http import call, error_message, sign_up

MARKDOWN = (
    "## Why speed matters\n\n"
    "A **fast** page keeps [visitors](https://example.com/a).\n\n"
    "| Page | Seconds |\n|---|---|\n| Home | 1.2 |\n\n"
    "- one\n- two\n\n"
    '<script>alert(1)</script>\n\n<a href="javascript:alert(2)">bad</a>\n'
)


async def test_a_markdown_article_keeps_its_source_and_renders_its_body(admin: Any) -> None:
    status, created = await call(
        admin,
        "post",
        "/api/admin/articles",
        {
            "title": "Speed",
            "body_format": "markdown",
            "source": MARKDOWN,
            "content": "<p>ignored for Markdown</p>",
        },
    )
    assert status == 201, created
    assert created["body_format"] == "markdown"
    assert created["source"] == MARKDOWN
    html = created["content"]
    assert "<h2>Why speed matters</h2>" in html
    assert "<strong>fast</strong>" in html
    assert '<a href="https://example.com/a" rel="noopener noreferrer">visitors</a>' in html
    assert "<table>" in html and "<td>1.2</td>" in html
    assert "<li>one</li>" in html
    assert "ignored for Markdown" not in html
    for bad in ("<script", "alert(1)", "javascript:"):
        assert bad not in html

    # The preview of the same text is exactly what was saved.
    status, preview = await call(
        admin, "post", "/api/admin/blog/preview", {"format": "markdown", "body": MARKDOWN}
    )
    assert status == 200, preview
    assert preview["html"] == html

    # The public article shows the rendered body.
    await call(admin, "post", f"/api/admin/articles/{created['id']}/publish")
    status, public = await call(admin, "get", f"/api/blog/articles/{created['slug']}")
    assert status == 200 and public["content"] == html


async def test_switching_a_markdown_article_to_html_drops_its_source(admin: Any) -> None:
    status, created = await call(
        admin,
        "post",
        "/api/admin/articles",
        {"title": "Switch", "body_format": "markdown", "source": "# Hi\n\nText *here*."},
    )
    assert status == 201
    path = f"/api/admin/articles/{created['id']}"
    status, edited = await call(
        admin,
        "put",
        path,
        {"title": "Switch", "body_format": "html", "content": created["content"] + "<p>More</p>"},
    )
    assert status == 200, edited
    assert edited["body_format"] == "html" and edited["source"] == ""
    assert edited["content"].endswith("<p>More</p>")
    assert "<em>here</em>" in edited["content"]

    # And back to Markdown: the HTML is kept as it is inside the Markdown.
    status, again = await call(
        admin,
        "put",
        path,
        {"title": "Switch", "body_format": "markdown", "source": edited["content"]},
    )
    assert status == 200, again
    assert again["body_format"] == "markdown"
    assert again["content"] == edited["content"]


async def test_html_is_the_default_and_existing_articles_stay_html(admin: Any) -> None:
    status, created = await call(
        admin,
        "post",
        "/api/admin/articles",
        {"title": "Plain", "content": "<p># not a heading</p>"},
    )
    assert status == 201
    assert created["body_format"] == "html" and created["source"] == ""
    assert created["content"] == "<p># not a heading</p>"
    # A source sent with an HTML body is not kept.
    status, edited = await call(
        admin,
        "put",
        f"/api/admin/articles/{created['id']}",
        {"title": "Plain", "content": "<p>x</p>", "source": "# stray"},
    )
    assert status == 200 and edited["source"] == "" and edited["content"] == "<p>x</p>"


async def test_preview_in_html_is_the_sanitised_body(admin: Any) -> None:
    status, data = await call(
        admin,
        "post",
        "/api/admin/blog/preview",
        {"format": "html", "body": '<h2>Hi</h2><img src="/a.png" alt="A" onerror="x()">**b**'},
    )
    assert status == 200, data
    assert data["html"] == '<h2>Hi</h2><img src="/a.png" alt="A">**b**'


async def test_preview_refuses_what_it_cannot_render(admin: Any) -> None:
    for body in (
        {"format": "rtf", "body": "x"},
        {"format": "markdown"},
        {"body": "x"},
        {"format": "markdown", "body": "a\x00b"},
        {"format": "markdown", "body": "a\ud800b"},  # a lone surrogate: no renderer takes it
        {"format": "html", "body": "x" * 200_001},
    ):
        status, data = await call(admin, "post", "/api/admin/blog/preview", body)
        assert status == 400, (body, data)
    status, data = await call(
        admin, "post", "/api/admin/blog/preview", {"format": "markdown", "body": "x" * 100_001}
    )
    assert status == 400
    assert error_message(data) == "The Markdown may have at most 100,000 characters."
    # Empty is fine: nothing to show.
    status, data = await call(
        admin, "post", "/api/admin/blog/preview", {"format": "markdown", "body": ""}
    )
    assert status == 200 and data["html"] == ""


async def test_a_markdown_article_refuses_a_wrong_format_or_a_too_long_source(admin: Any) -> None:
    status, _ = await call(
        admin, "post", "/api/admin/articles", {"title": "x", "body_format": "latex"}
    )
    assert status == 400
    status, _ = await call(
        admin,
        "post",
        "/api/admin/articles",
        {"title": "x", "body_format": "markdown", "source": "y" * 100_001},
    )
    assert status == 400


async def test_only_admins_preview(app: Any) -> None:
    client = app.test_client()
    body = {"format": "markdown", "body": "x"}
    assert (await call(client, "post", "/api/admin/blog/preview", body))[0] == 401
    await sign_up(client, "someone@example.com")
    status, data = await call(client, "post", "/api/admin/blog/preview", body)
    assert status == 403 and error_message(data) == "Only admins can do this."
