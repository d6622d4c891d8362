"""What the article manager asks the AI (spec §7 'Generate ideas', 'Generate article') and how
it reads the answers: defensively. A model may leave a field out, send a string where a list
belongs, wrap the list under another key, or write far too much; what can be read is kept and
cleaned to what our columns and schemas accept, and what cannot is a `GenerationFailed` whose
message the article manager shows in its red 'Error' box. Nothing here raises anything else.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt

from agency.modules.seo.schemas import GenerateArticleIn, IdeaOut

IDEAS_PER_REQUEST = 3  # spec §9
IDEA_KEYWORDS = 3  # spec §3: keywords (3)
IDEA_OUTLINE = 3  # spec §3: outline (3 points)
META_DESCRIPTION_LIMIT = 160  # spec §5: the meta description is under 160 characters
TITLE_MAX = 200  # GenerateArticleIn.title and the blog's title column
DESCRIPTION_MAX = 600  # GenerateArticleIn.description
POINT_MAX = 200  # one keyword or outline point as the web UI sends it back
KEYWORD_MAX = 60  # the blog's keyword limit
ARTICLE_KEYWORDS_MAX = 10
CONTENT_MAX = 200_000  # the blog's content limit
IDEAS_MAX_TOKENS = 1_500
ARTICLE_MAX_TOKENS = 4_000

MSG_NO_IDEAS = "The AI's answer held no usable ideas. Please try again."
MSG_NO_CONTENT = "The AI's answer held no article text. Please try again."
MSG_TOO_LONG = "The AI's article is too long to save. Please try again."

SYSTEM = (
    "You are an expert SEO content strategist and copywriter for a small digital agency that "
    "builds fast websites, sales funnels, booking systems and AI automations for small "
    "businesses. You write clear, practical, accurate articles for business owners. You "
    "always answer with one JSON object and nothing else."
)


class GenerationFailed(Exception):
    """A generation could not produce what was asked; `message` is for the article manager."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ---------------------------------------------------------------------------------------------
# Prompts


def ideas_prompt(topic: str) -> str:
    return (
        f"Suggest {IDEAS_PER_REQUEST} blog article ideas about this topic: {topic}\n\n"
        "Answer with a JSON object of exactly this shape:\n"
        '{"ideas": [{"title": "...", "description": "one or two sentences", '
        '"keywords": ["keyword 1", "keyword 2", "keyword 3"], '
        '"outline": ["point 1", "point 2", "point 3"]}]}\n'
        f"Give exactly {IDEAS_PER_REQUEST} ideas, each with {IDEA_KEYWORDS} search keywords and "
        f"a {IDEA_OUTLINE}-point outline. Titles under 70 characters. Write in the language of "
        "the topic."
    )


def article_prompt(idea: GenerateArticleIn) -> str:
    lines = [
        "Write a complete blog article for this idea.",
        f"Title: {idea.title}",
    ]
    if idea.description:
        lines.append(f"Description: {idea.description}")
    if idea.outline:
        lines.append("Outline:")
        lines.extend(f"- {point}" for point in idea.outline)
    if idea.keywords:
        lines.append("Keywords: " + ", ".join(idea.keywords))
    lines += [
        "",
        "Answer with a JSON object of exactly this shape:",
        '{"title": "...", "content": "<h2>...</h2><p>...</p>...", '
        '"metaDescription": "...", "keywords": ["...", "..."]}',
        "content: the article body as HTML, about 900 to 1,400 words, in sections with <h2> "
        "(and <h3>) headings, <p> paragraphs, <ul>/<ol> lists and <strong> where it helps; no "
        "<h1> (the page shows the title), no <html>, <head>, <body>, scripts, styles or images.",
        f"metaDescription: one sentence under {META_DESCRIPTION_LIMIT} characters that makes a "
        "searcher click.",
        "keywords: 5 to 8 search keywords.",
        "Write in the language of the title.",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Cleaning text


_DROP = re.compile(r"[\ud800-\udfff]")  # lone surrogates (json.loads lets "\ud800" through)


def clean_line(value: Any, limit: int) -> str:
    """One line: strings only, control characters dropped, whitespace runs made one space,
    cut to `limit` on a word boundary."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return ""
    value = _DROP.sub("", value)
    value = "".join(" " if unicodedata.category(c) == "Cc" else c for c in value)
    return trim_words(" ".join(value.split()), limit)


def clean_lines(value: str) -> str:
    """Free text (an HTML body): lone surrogates and control characters other than tab, LF and
    CR dropped."""
    value = _DROP.sub("", value)
    return "".join(c for c in value if c in "\t\n\r" or unicodedata.category(c) != "Cc")


def trim_words(text: str, limit: int) -> str:
    """`text` if it has at most `limit` characters, else its longest run of whole words that
    fits (trailing punctuation that would dangle dropped); a first word longer than the limit
    is cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit + 1]
    space = cut.rfind(" ")
    kept = cut[:space] if space > 0 else text[:limit]
    kept = kept.rstrip(" ,;:-\u2013\u2014")  # no dangling comma or dash
    return kept or text[:limit].rstrip()


def meta_description(text: Any) -> str:
    """Spec §5: under 160 characters, on a word boundary."""
    return trim_words(clean_line(text, 10 * META_DESCRIPTION_LIMIT), META_DESCRIPTION_LIMIT - 1)


def string_list(value: Any, *, limit: int, item_max: int) -> list[str]:
    """A list of short strings from a list (of strings, numbers or {"title"/"text"/...}
    objects) or from one comma-separated string; empty and repeated items dropped."""
    if isinstance(value, str):
        items: list[Any] = re.split(r"[,;\n]", value)
    elif isinstance(value, list):
        items = value
    else:
        return []
    seen: set[str] = set()
    result: list[str] = []
    for item in items:
        if isinstance(item, dict):
            item = next(
                (item[k] for k in ("title", "text", "point", "name", "keyword") if k in item), ""
            )
        text = clean_line(item, item_max).lstrip("-*• ").strip()
        if text and text.casefold() not in seen:
            seen.add(text.casefold())
            result.append(text)
        if len(result) == limit:
            break
    return result


def _pick(data: dict[str, Any], *names: str) -> Any:
    """The first of `names` present, also in another spelling (metaDescription,
    meta_description, meta-description, MetaDescription)."""
    folded = {re.sub(r"[^a-z]", "", str(k).lower()): v for k, v in data.items()}
    for name in names:
        if name in data:
            return data[name]
        key = re.sub(r"[^a-z]", "", name.lower())
        if key in folded:
            return folded[key]
    return None


# ---------------------------------------------------------------------------------------------
# Ideas


def _idea_list(data: dict[str, Any]) -> list[Any]:
    found = _pick(data, "ideas", "articleIdeas", "articles")
    if isinstance(found, list):
        return found
    # Another key holding a list of objects, or one idea on its own.
    for value in data.values():
        if isinstance(value, list) and any(isinstance(item, dict) for item in value):
            return value
    if _pick(data, "title") is not None:
        return [data]
    return []


def parse_ideas(data: dict[str, Any]) -> list[IdeaOut]:
    """Up to three ideas, each with a title; raises GenerationFailed when none has one."""
    ideas: list[IdeaOut] = []
    for item in _idea_list(data):
        if not isinstance(item, dict):
            continue
        title = clean_line(_pick(item, "title", "headline"), TITLE_MAX)
        if not title:
            continue
        ideas.append(
            IdeaOut(
                title=title,
                description=clean_line(_pick(item, "description", "summary"), DESCRIPTION_MAX),
                keywords=string_list(
                    _pick(item, "keywords", "tags"), limit=IDEA_KEYWORDS, item_max=KEYWORD_MAX
                ),
                outline=string_list(
                    _pick(item, "outline", "points", "sections"),
                    limit=IDEA_OUTLINE,
                    item_max=POINT_MAX,
                ),
            )
        )
        if len(ideas) == IDEAS_PER_REQUEST:
            break
    if not ideas:
        raise GenerationFailed(MSG_NO_IDEAS)
    return ideas


# ---------------------------------------------------------------------------------------------
# An article


@dataclass(frozen=True)
class Article:
    """A generated article, cleaned, ready for `blog.api.create_article`."""

    title: str
    content: str
    meta_description: str
    keywords: list[str]


_TAG = re.compile(r"<[a-zA-Z][^>]*>")
_ANY_TAG = re.compile(r"<[^>]*>")
_H1 = re.compile(r"<(/?)h1\b", re.IGNORECASE)
_markdown = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def body_html(content: str) -> str:
    """The body as HTML: a Markdown answer (no tag in it) is rendered; an <h1> becomes an <h2>
    (the page's title is its one <h1>). The blog sanitises it on save."""
    content = clean_lines(content).strip()
    if not _TAG.search(content):
        content = _markdown.render(content)
    return _H1.sub(r"<\1h2", content)


def plain_text(content: str) -> str:
    return " ".join(html.unescape(_ANY_TAG.sub(" ", content)).split())


def parse_article(data: dict[str, Any], idea: GenerateArticleIn) -> Article:
    """The article in the answer: the body is required; a missing title is the idea's, a
    missing meta description the body's first words, missing keywords the idea's."""
    raw = _pick(data, "content", "html", "body", "article")
    if isinstance(raw, dict):  # {"article": {"title": ..., "content": ...}}
        return parse_article(raw, idea)
    content = body_html(raw) if isinstance(raw, str) else ""
    if not plain_text(content):
        raise GenerationFailed(MSG_NO_CONTENT)
    if len(content) > CONTENT_MAX:
        raise GenerationFailed(MSG_TOO_LONG)
    title = clean_line(_pick(data, "title", "headline"), TITLE_MAX) or clean_line(
        idea.title, TITLE_MAX
    )
    description = meta_description(_pick(data, "metaDescription", "description"))
    if not description:
        description = meta_description(plain_text(content))
    keywords = string_list(
        _pick(data, "keywords", "tags"), limit=ARTICLE_KEYWORDS_MAX, item_max=KEYWORD_MAX
    ) or string_list(idea.keywords, limit=ARTICLE_KEYWORDS_MAX, item_max=KEYWORD_MAX)
    return Article(title=title, content=content, meta_description=description, keywords=keywords)
