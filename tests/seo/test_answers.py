"""Reading the AI's answers and Markdown files: properties (hypothesis) and examples. No
database, no server."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.core.errors import ValidationFailed
from agency.core.text import is_line
from agency.modules.seo.schemas import ArticleIn, GenerateArticleIn
from agency.modules.seo.service import answers, importing
from agency.modules.seo.service.answers import GenerationFailed

IDEA = GenerateArticleIn(title="Fast sites", keywords=["speed"], outline=["Why"])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=20,
)
idea_like = st.fixed_dictionaries(
    {},
    optional={
        "title": json_values,
        "description": json_values,
        "keywords": json_values,
        "outline": json_values,
    },
)
answers_like = st.one_of(
    st.dictionaries(st.text(), json_values, max_size=5),
    st.fixed_dictionaries({"ideas": st.lists(idea_like | json_values, max_size=6)}),
)


# --- Meta description and word trimming ----------------------------------------------------


@given(st.text(max_size=600))
def test_meta_description_is_under_160_on_a_word_boundary(text: str) -> None:
    meta = answers.meta_description(text)
    assert len(meta) < 160
    assert is_line(meta, 159)
    assert answers.meta_description(meta) == meta  # idempotent
    normal = answers.clean_line(text, 10_000)
    assert normal.startswith(meta) or len(normal) > 1600  # a prefix of the cleaned text
    if len(normal) < 160:
        assert meta == normal
    elif " " in normal[:160] and normal[len(meta) : len(meta) + 1] not in ("", " "):
        # Cut between words: the next character of the text is a space or punctuation cut.
        assert normal[len(meta)] in " ,;:-\u2013\u2014"


def test_meta_description_examples() -> None:
    assert answers.meta_description("Short and sweet.") == "Short and sweet."
    long = "Speed " * 40
    assert answers.meta_description(long) == ("Speed " * 26).strip()  # 155 characters
    assert answers.meta_description("x" * 300) == "x" * 159  # one huge word is cut
    assert answers.meta_description("a, " * 80).endswith("a")  # no dangling comma
    assert answers.meta_description(None) == ""
    assert answers.meta_description("Line\nbreaks\tand\x00nul") == "Line breaks and nul"


@given(st.text(max_size=300), st.integers(min_value=1, max_value=200))
def test_trim_words_fits_and_is_a_prefix(text: str, limit: int) -> None:
    trimmed = answers.trim_words(text, limit)
    assert len(trimmed) <= limit
    assert text.startswith(trimmed)


# --- Lists and lines -------------------------------------------------------------------------


@given(json_values, st.integers(min_value=1, max_value=10), st.integers(min_value=1, max_value=80))
def test_string_list_gives_short_clean_unique_lines(value: Any, limit: int, item_max: int) -> None:
    items = answers.string_list(value, limit=limit, item_max=item_max)
    assert len(items) <= limit
    assert len({item.casefold() for item in items}) == len(items)
    for item in items:
        assert item and len(item) <= item_max and is_line(item, item_max)


def test_string_list_examples() -> None:
    assert answers.string_list("a, b; c\nd", limit=3, item_max=60) == ["a", "b", "c"]
    assert answers.string_list(["- one", "* two", "Two", 3], limit=9, item_max=60) == [
        "one",
        "two",
        "3",
    ]
    assert answers.string_list([{"title": "Intro"}, {"point": "Body"}], limit=3, item_max=60) == [
        "Intro",
        "Body",
    ]
    assert answers.string_list({"not": "a list"}, limit=3, item_max=60) == []


# --- Ideas -----------------------------------------------------------------------------------


@given(answers_like)
def test_parse_ideas_gives_valid_ideas_or_a_message(data: dict[str, Any]) -> None:
    try:
        ideas = answers.parse_ideas(data)
    except GenerationFailed as failure:
        assert failure.message == answers.MSG_NO_IDEAS
        return
    assert 1 <= len(ideas) <= 3
    for idea in ideas:
        assert idea.title and is_line(idea.title, 200)
        assert is_line(idea.description, 600)
        assert len(idea.keywords) <= 3 and len(idea.outline) <= 3
        # What the page sends back to write the article is accepted as it is.
        GenerateArticleIn.model_validate(idea.model_dump())


def test_parse_ideas_reads_other_shapes() -> None:
    single = answers.parse_ideas({"title": "Just one", "keywords": "a,b"})
    assert [(i.title, i.keywords) for i in single] == [("Just one", ["a", "b"])]
    wrapped = answers.parse_ideas({"suggestions": [{"Title": "Wrapped", "Outline": ["x"]}]})
    assert [(i.title, i.outline) for i in wrapped] == [("Wrapped", ["x"])]
    surrogate = answers.parse_ideas(json.loads('{"ideas": [{"title": "A\\ud800B"}]}'))
    assert surrogate[0].title == "AB"


# --- Articles --------------------------------------------------------------------------------


@given(
    st.dictionaries(st.text(max_size=20), json_values, max_size=6)
    | st.fixed_dictionaries(
        {"content": st.text(max_size=400)},
        optional={"title": json_values, "metaDescription": json_values, "keywords": json_values},
    )
)
def test_parse_article_gives_a_savable_draft_or_a_message(data: dict[str, Any]) -> None:
    try:
        article = answers.parse_article(data, IDEA)
    except GenerationFailed as failure:
        assert failure.message in (answers.MSG_NO_CONTENT, answers.MSG_TOO_LONG)
        return
    assert article.title and len(article.meta_description) < 160
    ArticleIn(
        title=article.title,
        meta_description=article.meta_description,
        keywords=article.keywords,
        content=article.content,
    )  # the blog's schema accepts it


def test_parse_article_examples() -> None:
    article = answers.parse_article(
        {
            "meta_description": "From the snake_case key.",
            "content": "<h1>Big</h1><p>Text</p>",
            "tags": ["t"],
        },
        IDEA,
    )
    assert article.title == "Fast sites"
    assert article.meta_description == "From the snake_case key."
    assert article.content == "<h2>Big</h2><p>Text</p>"  # the page's title is the one h1
    assert article.keywords == ["t"]
    nested = answers.parse_article({"article": {"title": "Nested", "content": "<p>x</p>"}}, IDEA)
    assert nested.title == "Nested" and nested.meta_description == "x"
    with pytest.raises(GenerationFailed):
        answers.parse_article({"content": "<p> </p>"}, IDEA)
    with pytest.raises(GenerationFailed):
        answers.parse_article({"content": "<p>" + "x" * 200_001 + "</p>"}, IDEA)


def test_prompts_carry_the_request_and_ask_for_json() -> None:
    ideas = answers.ideas_prompt("dentists")
    assert "dentists" in ideas and "JSON" in ideas and '"outline"' in ideas
    article = answers.article_prompt(
        GenerateArticleIn(title="T", description="D", keywords=["k1", "k2"], outline=["o1"])
    )
    for part in ("Title: T", "Description: D", "- o1", "Keywords: k1, k2", "metaDescription"):
        assert part in article


# --- Markdown import -------------------------------------------------------------------------


def test_markdown_with_front_matter() -> None:
    text = """---
title: "Why speed: a guide"
description: What a slow page costs.
keywords: [speed, 'core web vitals', seo]
slug: speed-guide
---
Some **bold** text.

<script>alert(1)</script>
"""
    article = importing.article_from_markdown(text)
    assert article.title == "Why speed: a guide"
    assert article.meta_description == "What a slow page costs."
    assert article.keywords == ["speed", "core web vitals", "seo"]
    assert article.slug == "speed-guide"
    assert "<strong>bold</strong>" in article.content
    # Raw HTML passes CommonMark as it is; the blog sanitises it on save (test_cli.py).


def test_markdown_list_keywords_and_heading_title() -> None:
    text = "---\nkeywords:\n  - one\n  - two\n---\n# The Title\n\nBody.\n"
    article = importing.article_from_markdown(text)
    assert article.title == "The Title"
    assert article.keywords == ["one", "two"]
    assert "The Title" not in article.content and "<p>Body.</p>" in article.content
    plain = importing.article_from_markdown("# Only a heading\n\ntext")
    assert plain.title == "Only a heading" and plain.meta_description == ""


def test_markdown_without_a_title_or_with_open_front_matter() -> None:
    with pytest.raises(ValidationFailed) as caught:
        importing.article_from_markdown("Just text.")
    assert caught.value.message == importing.MSG_NO_TITLE
    with pytest.raises(ValidationFailed) as caught:
        importing.article_from_markdown("---\ntitle: x\nno end")
    assert caught.value.message == importing.MSG_FRONT_MATTER


@given(
    st.text(max_size=80),
    st.text(max_size=200),
    st.lists(st.text(max_size=30), max_size=6),
    st.text(max_size=400),
)
def test_front_matter_never_breaks(
    title: str, description: str, keywords: list[str], body: str
) -> None:
    text = (
        f"---\ntitle: {title}\ndescription: {description}\nkeywords: [{', '.join(keywords)}]\n"
        f"---\n{body}"
    )
    try:
        article = importing.article_from_markdown(text)
    except ValidationFailed:
        return
    assert article.title and is_line(article.title, 200)
    assert is_line(article.meta_description, 300)
    assert all(is_line(k, 60) for k in article.keywords)
