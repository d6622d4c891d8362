"""The end of an article (author, call to action, related articles), its language and its
cover image: the upload API (good images, bad types, too big, not an admin), the stored sizes
and their cache headers, and the page's head (Open Graph, JSON-LD, lang) on both databases."""

from __future__ import annotations

import html
import io
import json
import random
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image
from werkzeug.datastructures import FileStorage

from agency.app import MAX_UPLOAD_BODY_BYTES
from agency.core.errors import ValidationFailed
from agency.modules.auth.models import Profile
from agency.modules.auth.service.profile import MSG_BIO_LONG, clean_bio
from agency.modules.blog.models import Article
from agency.modules.blog.service import covers
from agency.modules.blog.service.public import rank_related
from tests.blog.conftest import BASE_URL, article, at
from tests.helpers.http import HEADERS, call

DC = "http://purl.org/dc/elements/1.1/"


def image_bytes(fmt: str, size: tuple[int, int] = (1600, 900), mode: str = "RGB") -> bytes:
    buffer = io.BytesIO()
    Image.new(mode, size, (200, 30, 30) if mode == "RGB" else None).save(buffer, format=fmt)
    return buffer.getvalue()


async def upload(client: Any, article_id: int, data: bytes, name: str = "cover.jpg") -> Any:
    return await client.post(
        f"/api/admin/blog/articles/{article_id}/cover",
        files={"file": FileStorage(io.BytesIO(data), filename=name)},
        headers=HEADERS,
    )


def ld_json(page: str) -> Any:
    match = re.search(r'<script type="application/ld\+json">(.*?)</script>', page)
    assert match
    return json.loads(match.group(1))


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
async def test_an_admin_uploads_a_cover_resized_to_the_pages_widths(
    admin: Any, web: Any, fmt: str
) -> None:
    saved = await article()
    response = await upload(admin, saved.id, image_bytes(fmt))
    assert response.status_code == 200, await response.get_data(as_text=True)
    cover = (await response.get_json())["cover"]
    ext = covers.FORMATS[fmt][0]
    assert (cover["width"], cover["height"]) == (1440, 810)
    assert cover["url"].endswith(f"-960.{ext}")
    assert [part.split(" ")[1] for part in cover["srcset"].split(", ")] == [
        "480w",
        "960w",
        "1440w",
    ]
    for part in cover["srcset"].split(", "):
        url, width = part.split(" ")
        got = await web.get(url)
        assert got.status_code == 200
        assert got.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert got.headers["content-type"] == covers.FORMATS[fmt][1]
        assert Image.open(io.BytesIO(got.content)).width == int(width[:-1])


async def test_a_small_image_is_not_enlarged(admin: Any) -> None:
    saved = await article()
    response = await upload(admin, saved.id, image_bytes("PNG", (700, 350)), "small.png")
    cover = (await response.get_json())["cover"]
    assert (cover["width"], cover["height"]) == (700, 350)
    assert cover["srcset"].endswith("-700.png 700w")
    assert cover["url"].endswith("-700.png")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"GIF89a" + b"\0" * 100, covers.MSG_NOT_IMAGE),
        (b"%PDF-1.4 not an image", covers.MSG_NOT_IMAGE),
        (b"", covers.MSG_NO_FILE),
        (image_bytes("GIF", (400, 400)), covers.MSG_NOT_IMAGE),
        (image_bytes("JPEG", (150, 600)), covers.MSG_TOO_SMALL),
        (image_bytes("JPEG")[:200], covers.MSG_NOT_IMAGE),
    ],
)
async def test_anything_but_a_jpeg_png_or_webp_is_refused_with_a_message(
    admin: Any, data: bytes, message: str
) -> None:
    saved = await article()
    response = await upload(admin, saved.id, data)
    assert response.status_code == 400
    assert (await response.get_json())["error"]["message"] == message
    assert (await Article.get(id=saved.id)).cover_key is None


async def test_a_too_big_file_is_refused(admin: Any) -> None:
    saved = await article()
    response = await upload(admin, saved.id, b"\xff\xd8\xff" + b"\0" * covers.MAX_BYTES)
    assert response.status_code == 400
    assert (await response.get_json())["error"]["message"] == covers.MSG_TOO_BIG
    # Past the upload paths' request limit the server refuses it without reading it all.
    response = await upload(admin, saved.id, b"\0" * (MAX_UPLOAD_BODY_BYTES + 1))
    assert response.status_code == 413
    # Every other route keeps the app's 1 MiB limit, also for a body just under 8 MiB.
    response = await admin.post(
        "/api/admin/articles",
        data=b"{" + b" " * (2 * 1024 * 1024) + b"}",
        headers={**HEADERS, "Content-Type": "application/json"},
    )
    assert response.status_code == 413


async def test_a_cover_of_several_megabytes_is_taken(admin: Any) -> None:
    """An upload over the app's 1 MiB request limit, under the cover's 8 MB."""
    noise = Image.frombytes("RGB", (1200, 900), bytes(random.Random(7).randbytes(1200 * 900 * 3)))
    buffer = io.BytesIO()
    noise.save(buffer, format="PNG")
    data = buffer.getvalue()
    assert 2 * 1024 * 1024 < len(data) < covers.MAX_BYTES
    saved = await article()
    response = await upload(admin, saved.id, data, name="noise.png")
    assert response.status_code == 200, await response.get_data()
    cover = (await response.get_json())["cover"]
    assert (cover["width"], cover["height"]) == (1200, 900)


async def test_only_an_admin_uploads_and_only_from_the_web_ui(
    customer: Any, admin: Any, client: Any
) -> None:
    saved = await article()
    assert (await upload(client, saved.id, image_bytes("JPEG"))).status_code == 401
    assert (await upload(customer, saved.id, image_bytes("JPEG"))).status_code == 403
    refused = await admin.post(
        f"/api/admin/blog/articles/{saved.id}/cover",
        files={"file": FileStorage(io.BytesIO(image_bytes("JPEG")), filename="a.jpg")},
    )
    assert refused.status_code == 403  # without the web UI's header (the CSRF guard)
    assert (await upload(admin, 999_999, image_bytes("JPEG"))).status_code == 404
    # An id past the column's range names no article (PostgreSQL would refuse the comparison).
    too_large = 2**63
    assert (await upload(admin, too_large, image_bytes("JPEG"))).status_code == 404
    for method in ("delete", "patch"):
        path = f"/api/admin/blog/articles/{too_large}" + ("/cover" if method == "delete" else "")
        status, _ = await call(admin, method, path, {} if method == "patch" else None)
        assert status == 404, method


async def test_a_cross_site_upload_is_refused_and_only_the_cover_route_takes_a_form(
    admin: Any, web: Any
) -> None:
    """The CSRF guard (in front of the app, so before signing in counts) lets a multipart body
    through on the cover upload alone, and there only from the same site with the web UI's
    header; every other route still asks for JSON. Through httpx, which sends the body's
    Content-Length as a browser does."""
    saved = await article()

    def form() -> dict[str, tuple[str, bytes, str]]:
        return {"file": ("a.jpg", image_bytes("JPEG", (300, 300)), "image/jpeg")}

    cover = f"/api/admin/blog/articles/{saved.id}/cover"
    for headers, reason in (
        ({**HEADERS, "Sec-Fetch-Site": "cross-site"}, "Cross-site requests are not allowed."),
        ({**HEADERS, "Origin": "https://evil.example"}, "Cross-site requests are not allowed."),
        ({"Sec-Fetch-Site": "same-origin"}, "Missing X-Agency-Request header."),
    ):
        refused = await web.post(cover, files=form(), headers=headers)
        assert refused.status_code == 403, headers
        assert refused.json()["error"] == {"code": "csrf_failed", "message": reason}
    # A plain form post (what a cross-site HTML form sends) is not an upload.
    refused = await web.post(cover, data={"file": "x"}, headers=HEADERS)
    assert refused.status_code == 403
    assert refused.json()["error"]["message"] == "Requests must be sent as JSON."
    # Same site with the header: past the guard (then the route asks for a signed-in admin).
    assert (await web.post(cover, files=form(), headers=HEADERS)).status_code == 401
    for method, path in (
        ("PATCH", f"/api/admin/blog/articles/{saved.id}"),
        ("PUT", f"/api/admin/articles/{saved.id}"),
        ("POST", "/api/admin/articles"),
        ("POST", f"{cover}/more"),
        ("DELETE", cover),
    ):
        refused = await web.request(method, path, files=form(), headers=HEADERS)
        assert refused.status_code == 403, (method, path)
        assert refused.json()["error"]["message"] == "Requests must be sent as JSON."
    assert (await Article.get(id=saved.id)).cover_key is None
    assert (await upload(admin, saved.id, image_bytes("JPEG"))).status_code == 200


async def test_removing_the_cover_deletes_its_files(admin: Any, web: Any) -> None:
    saved = await article()
    cover = (await (await upload(admin, saved.id, image_bytes("JPEG"))).get_json())["cover"]
    status, data = await call(admin, "delete", f"/api/admin/blog/articles/{saved.id}/cover")
    assert status == 200 and data["cover"] is None
    assert (await web.get(cover["url"])).status_code == 404
    assert (await web.get("/api/blog/covers/..%2Fagency.db")).status_code == 404


async def test_the_article_page_shows_author_call_to_action_related_and_cover(
    admin: Any, web: Any
) -> None:
    await Profile.filter(id=admin.user_id).update(
        first_name="Anna", last_name="Admin", bio="Builds fast sites."
    )
    main = await article(
        "Speed for clinics", keywords=["speed", "clinics"], created_by=admin.user_id
    )
    await article("Old speed piece", keywords=["speed", "clinics"], published_at=at(1))
    await article("Newer unrelated", keywords=["cooking"], published_at=at(20))
    await article("One shared", keywords=["speed"], published_at=at(10))
    await article("Draft", keywords=["speed", "clinics"], publish=False)
    status, _ = await call(
        admin,
        "put",
        f"/api/admin/articles/{main.id}",
        {"title": main.title, "slug": main.slug, "content": main.content, "keywords": main.keywords,
         "call_to_action": "start", "cover_alt": "A clinic's waiting room"},
    )  # fmt: skip
    assert status == 200
    await upload(admin, main.id, image_bytes("JPEG"))

    data = (await web.get(f"/api/blog/articles/{main.slug}")).json()
    assert data["author"] == {"name": "Anna Admin", "bio": "Builds fast sites."}
    assert data["call_to_action"] == "start"
    assert [a["title"] for a in data["related"]] == ["Old speed piece", "One shared"]
    assert data["cover"]["alt"] == "A clinic's waiting room"

    page = (await web.get(f"/blog/{main.slug}")).text
    assert '<html lang="en">' in page
    assert "About the author" in page and "Builds fast sites." in page
    assert '<a class="blog-cta__link" href="/start">Start your project</a>' in page
    assert 'href="/blog/old-speed-piece"' in page
    assert 'width="1440" height="810"' in page
    largest = f"{BASE_URL}{data['cover']['srcset'].rsplit(' ', 2)[-2]}"
    assert f'<meta property="og:image" content="{html.escape(largest)}">' in page
    structured = ld_json(page)
    assert structured["author"] == {"@type": "Person", "name": "Anna Admin"}
    assert structured["image"]["url"] == largest
    assert (structured["image"]["width"], structured["image"]["height"]) == (1440, 810)

    listing = (await web.get("/blog")).text
    assert 'class="blog-card__cover"' in listing

    # The admin API names the same author (the manager's list and one article).
    author = {"name": "Anna Admin", "bio": "Builds fast sites."}
    status, one = await call(admin, "get", f"/api/admin/articles/{main.id}")
    assert status == 200 and one["author"] == author
    status, listed = await call(admin, "get", "/api/admin/articles")
    assert [a["author"] for a in listed["articles"] if a["id"] == main.id] == [author]
    status, moved = await call(admin, "post", f"/api/admin/articles/{main.id}/draft")
    assert status == 200 and moved["author"] == author, moved


async def test_a_german_article_is_served_with_lang_de(admin: Any, web: Any) -> None:
    status, created = await call(
        admin, "post", "/api/admin/articles", {"title": "Schnelle Websites", "language": "de"}
    )
    assert status == 201 and created["language"] == "de"
    assert created["call_to_action"] == "speed_test"
    await call(admin, "post", f"/api/admin/articles/{created['id']}/publish")
    page = (await web.get(f"/blog/{created['slug']}")).text
    assert '<html lang="de">' in page
    assert "Veröffentlicht am" in page and "Website-Geschwindigkeit testen" in page
    assert ld_json(page)["inLanguage"] == "de"
    status, _ = await call(
        admin, "put", f"/api/admin/articles/{created['id']}", {"title": "x", "language": "fr"}
    )
    assert status == 400
    # The feed: the channel is the (English) blog's; each item says its own language.
    await article("Fast sites in English", published_at=at(2))
    feed = ET.fromstring((await web.get("/blog/rss.xml")).content)
    assert feed.findtext("channel/language") == "en"
    languages = {
        item.findtext("title"): item.findtext(f"{{{DC}}}language")
        for item in feed.findall("channel/item")
    }
    assert languages == {"Schnelle Websites": "de", "Fast sites in English": "en"}


async def test_the_profile_bio_is_saved_kept_and_limited(customer: Any) -> None:
    names = {"first_name": "Ada", "last_name": "Lovelace"}
    status, data = await call(
        customer, "patch", "/api/account/profile", {**names, "bio": "  Writes   about speed. "}
    )
    assert status == 200 and data["user"]["bio"] == "Writes about speed."
    status, data = await call(customer, "patch", "/api/account/profile", names)
    assert data["user"]["bio"] == "Writes about speed."  # absent: kept
    status, data = await call(
        customer, "patch", "/api/account/profile", {**names, "bio": "x" * 281}
    )
    assert status == 400


# Validators and ranking, for any input.


@given(st.text(max_size=400))
def test_clean_bio_is_one_trimmed_line_of_at_most_280_or_refused(text: str) -> None:
    try:
        bio = clean_bio(text)
    except ValidationFailed as error:
        assert error.message == MSG_BIO_LONG
        assert len(" ".join(text.split())) > 280
        return
    assert bio == " ".join(text.split()) and len(bio) <= 280


@given(st.integers(min_value=covers.MIN_SIDE, max_value=20_000))
def test_stored_widths_are_ascending_never_enlarged_and_end_at_the_largest(width: int) -> None:
    largest = covers.target_width(width)
    widths = covers.widths_for(largest)
    assert widths == sorted(set(widths)) and widths[-1] == largest <= min(width, 1440)
    assert all(w in covers.WIDTHS for w in widths[:-1])


@given(st.binary(max_size=2000))
@settings(max_examples=60, deadline=None)
def test_any_bytes_are_stored_as_an_image_or_refused_with_a_message(
    tmp_path_factory: Any, data: bytes
) -> None:
    folder = tmp_path_factory.mktemp("covers")
    try:
        covers.store(data, folder)
    except ValidationFailed as error:
        assert error.message in {
            covers.MSG_NO_FILE, covers.MSG_NOT_IMAGE, covers.MSG_TOO_SMALL,
            covers.MSG_TOO_MANY_PIXELS, covers.MSG_TOO_BIG,
        }  # fmt: skip


@given(st.text(max_size=80))
def test_a_cover_file_name_never_reaches_outside_its_folder(name: str) -> None:
    from pathlib import Path

    folder = Path("/nonexistent-covers")
    assert covers.public_file(folder, name) is None


def _row(n: int, language: str, keywords: list[str], day: int) -> Article:
    return Article(
        id=n,
        language=language,
        keywords=keywords,
        published_at=datetime(2026, 1, day, tzinfo=UTC),
    )


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["en", "de"]),
            st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=4),
            st.integers(min_value=1, max_value=28),
        ),
        max_size=8,
    ),
    st.sampled_from(["en", "de"]),
    st.lists(st.sampled_from(["a", "b", "c"]), max_size=3),
)
def test_related_are_two_others_same_language_first_then_most_shared_then_newest(
    others: list[tuple[str, list[str], int]], language: str, keywords: list[str]
) -> None:
    this = _row(0, language, keywords, 15)
    rows = [_row(i + 1, *o) for i, o in enumerate(others)]
    picked = rank_related(this, [this, *rows])
    assert len(picked) == min(2, len(rows)) and this not in picked
    words = set(keywords)

    def key(a: Article) -> tuple[int, int, datetime]:
        assert a.published_at is not None
        return (a.language == language, len(words & set(a.keywords)), a.published_at)

    for chosen in picked:
        for other in rows:
            if other not in picked:
                assert key(chosen) >= key(other)
