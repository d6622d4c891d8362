"""Properties of the Markdown body (render, then sanitise) and of the slug a draft's title
gives (hypothesis)."""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from agency.modules.blog.service.articles import slugify
from agency.modules.blog.service.markdown import markdown_html, render_body
from agency.modules.blog.service.sanitise import sanitise
from tests.blog.test_properties import DANGEROUS, ORDINARY, assert_harmless

# Markdown ways to bring in a script or a bad link, beside the HTML ones.
MARKDOWN_DANGEROUS = [
    "[x](javascript:alert(1))",
    "[x](JAVASCRIPT:alert(1))",
    "![x](javascript:alert(1))",
    "![x](data:text/html;base64,PHNjcmlwdD4=)",
    "<javascript:alert(1)>",
    "[x][r]\n\n[r]: javascript:alert(1)\n",
    "[x](vbscript:msgbox(1))",
    '[x](https://example.com "a" onclick="alert(1)")',
    "```html\n<script>alert(1)</script>\n```",
    "    <script>alert(1)</script>",
    "`<img src=x onerror=alert(1)>`",
]
MARKDOWN_ORDINARY = [
    "# Title\n", "## Sub\n", "\n\n", "\n", "- item\n", "1. first\n", "> quote\n", "**b**", "*e*",
    "~~s~~", "`code`", "| a | b |\n|---|---|\n| 1 | 2 |\n", "[link](https://example.com)",
    "![img](/a.png)", "---\n", "    indented\n", "\"quoted\"", "'single'", "...", "--",
]  # fmt: skip
PIECES = st.lists(
    st.sampled_from(MARKDOWN_DANGEROUS + MARKDOWN_ORDINARY + DANGEROUS + ORDINARY)
    | st.text(max_size=20),
    max_size=14,
)


@settings(max_examples=400)
@given(PIECES)
def test_a_markdown_body_is_harmless_and_already_sanitised(pieces: list[str]) -> None:
    html = render_body("markdown", "".join(pieces))
    assert_harmless(html)
    assert sanitise(html) == html  # what the blog sanitises again on show is unchanged


@given(PIECES)
def test_the_preview_and_the_save_are_one_function(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert render_body("markdown", text) == sanitise(markdown_html(text))
    assert render_body("html", text) == sanitise(text)


@given(st.lists(st.from_regex(r"[A-Za-z0-9]{1,10}", fullmatch=True), min_size=1, max_size=20))
def test_plain_words_read_as_written(words: list[str]) -> None:
    text = " ".join(words)
    assert render_body("markdown", text) == f"<p>{text}</p>\n"


# Lone surrogates (category Cs) never reach the renderer: a request's `Lines` refuses them.
@given(
    st.text(
        alphabet=st.characters(exclude_characters="<>&[]", exclude_categories=("Cs",)),
        max_size=200,
    )
)
def test_no_text_is_lost(text: str) -> None:
    # Every letter or digit typed shows up in the rendered page, whatever Markdown syntax is
    # around it (tags, entities and link definitions aside: those are markup, not text).
    html = render_body("markdown", text)
    shown = unescape(html)
    for char in text:
        if char.isascii() and char.isalnum():
            assert char in shown, (text, html)


CASES = json.loads(
    (Path(__file__).parents[2] / "webui/src/features/seo/slug-cases.json").read_text("utf-8")
)


def test_the_editor_and_the_server_make_the_same_slug_of_a_title() -> None:
    # The same table is checked against the editor's slugify (articles.test.ts): the slug a
    # draft follows while its title is typed is the one the server would make.
    assert len(CASES) >= 10
    for case in CASES:
        assert slugify(case["title"]) == (case["slug"] or "article"), case


@given(st.text(alphabet=st.characters(codec="ascii"), max_size=80))
def test_a_followed_slug_is_stable(title: str) -> None:
    # The editor sends slugify(title) as the slug: the server keeps it as it is.
    slug = slugify(title)
    assert slugify(slug) == slug
