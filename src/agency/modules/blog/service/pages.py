"""The blog's pages as the first HTML response carries them: the built page of `/blog` or
`/blog/:slug` (prerendered by the web UI with an empty region) filled with the current list or
article, its head tags (title, description, canonical URL, Open Graph, `Article` JSON-LD) and
the same data as JSON in `<meta name="agency-blog">`, from which the client renders exactly
this markup when it hydrates (webui/src/features/blog/BlogRegion.tsx renders the same
elements; both are checked against webui/test/fixtures/blog-render-cases.json).

Everything a person wrote is HTML-escaped; an article's body is its sanitised HTML.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime

from agency.modules.blog.schemas import BlogPageOut, PublishedArticleOut
from agency.modules.blog.service.sanitise import sanitise

# The brand when the page has none to read (the API-only server): the default brand_name.
SITE_NAME = "agency"
_SITE_NAME_META = re.compile(r'<meta property="og:site_name" content="([^"]*)"')
# What the build leaves where the list or the article goes (webui: BLOG_REGION_MARKER).
REGION_MARKER = "<!--agency-blog-->"
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
NOT_FOUND_TITLE = "Article not found"
NOT_FOUND_TEXT = "This article does not exist or is no longer published."
BACK = "Back to all articles"
EMPTY = "No articles yet. Check back soon."
READ_MORE = "Read More"


def _e(text: str) -> str:
    """Escaped as React escapes text and attributes (& < > " ')."""
    return html.escape(text, quote=True)


def display_date(moment: datetime) -> str:
    """ "November 24, 2026" (UTC): the client's `displayDate`."""
    return f"{MONTHS[moment.month - 1]} {moment.day}, {moment.year}"


def iso_date(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    return f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"


def _time(moment: datetime) -> str:
    return f'<time datetime="{iso_date(moment)}">{display_date(moment)}</time>'


def page_href(page: int) -> str:
    return "/blog" if page <= 1 else f"/blog?page={page}"


def list_region(data: BlogPageOut) -> str:
    """The list's markup: the cards, or the empty state; the page links past one page."""
    if not data.articles:
        return f'<p class="blog-empty">{EMPTY}</p>'
    cards = "".join(
        '<li class="blog-card"><article class="blog-card__inner">'
        f'<h2 class="blog-card__title"><a href="/blog/{_e(a.slug)}">{_e(a.title)}</a></h2>'
        f'<p class="blog-card__date">{_time(a.published_at)}</p>'
        f'<p class="blog-card__text">{_e(a.meta_description)}</p>'
        f'<a class="blog-card__more" href="/blog/{_e(a.slug)}">{READ_MORE}'
        f'<span class="visually-hidden">: {_e(a.title)}</span></a>'
        "</article></li>"
        for a in data.articles
    )
    out = f'<ul class="blog-grid">{cards}</ul>'
    if data.pages > 1:
        links = []
        if data.page > 1:
            links.append(
                f'<a class="blog-pages__prev" rel="prev" href="{page_href(data.page - 1)}">'
                "Newer articles</a>"
            )
        links.append(f'<span class="blog-pages__where">Page {data.page} of {data.pages}</span>')
        if data.page < data.pages:
            links.append(
                f'<a class="blog-pages__next" rel="next" href="{page_href(data.page + 1)}">'
                "Older articles</a>"
            )
        out += f'<nav class="blog-pages" aria-label="Blog pages">{"".join(links)}</nav>'
    return out


def article_region(article: PublishedArticleOut) -> str:
    """The article's markup: title, date, sanitised body, keywords, the way back."""
    keywords = "".join(f"<li>{_e(k)}</li>" for k in article.keywords)
    keyword_list = (
        f'<ul class="blog-article__keywords" aria-label="Keywords">{keywords}</ul>'
        if article.keywords
        else ""
    )
    return (
        '<article class="blog-article">'
        f'<h1 class="blog-article__title">{_e(article.title)}</h1>'
        f'<p class="blog-article__date">Published {_time(article.published_at)}</p>'
        f'<div class="prose blog-article__body">{sanitise(article.content)}</div>'
        f"{keyword_list}"
        f'<p class="blog-article__back"><a href="/blog">{BACK}</a></p>'
        "</article>"
    )


def missing_region() -> str:
    return (
        '<div class="blog-missing">'
        f'<h1 class="blog-article__title">{NOT_FOUND_TITLE}</h1>'
        f"<p>{NOT_FOUND_TEXT}</p>"
        f'<p class="blog-article__back"><a href="/blog">{BACK}</a></p>'
        "</div>"
    )


def _json_for_script(value: object) -> str:
    """JSON safe inside a <script> element (no `</script>`, no HTML comment opener)."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _replace_tag(text: str, pattern: str, replacement: str) -> str:
    return re.sub(pattern, lambda _m: replacement, text, count=1)


def site_name(page: str) -> str:
    """The brand a built page names (its `og:site_name`, which the server filled from the
    configured brand_name at start-up), for the titles and the structured data set here."""
    match = _SITE_NAME_META.search(page)
    return html.unescape(match.group(1)) if match else SITE_NAME


def _set_head(
    text: str, *, title: str, description: str, url: str, extra: list[str], noindex: bool = False
) -> str:
    full = _e(f"{title} | {site_name(text)}")
    desc = _e(description)
    text = _replace_tag(text, r"<title>[^<]*</title>", f"<title>{full}</title>")
    for attr, key, value in (
        ("name", "description", desc),
        ("property", "og:title", full),
        ("property", "og:description", desc),
        ("property", "og:url", _e(url)),
    ):
        text = _replace_tag(
            text,
            rf'<meta {attr}="{re.escape(key)}" content="[^"]*"\s*/?>',
            f'<meta {attr}="{key}" content="{value}">',
        )
    text = _replace_tag(
        text,
        r'<link rel="canonical" href="[^"]*"\s*/?>',
        f'<link rel="canonical" href="{_e(url)}">',
    )
    if noindex:
        extra = [*extra, '<meta name="robots" content="noindex">']
    return text.replace("</head>", "".join(extra) + "</head>", 1)


def _data_meta(data: Mapping[str, object]) -> str:
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f'<meta name="agency-blog" content="{_e(payload)}">'


def _feed_link(base_url: str) -> str:
    return (
        '<link rel="alternate" type="application/rss+xml" title="Blog" '
        f'href="{_e(base_url)}/blog/rss.xml">'
    )


def fill_region(template: str, region: str) -> str:
    return template.replace(REGION_MARKER, region, 1)


def list_page(template: str, data: BlogPageOut, base_url: str) -> str:
    """/blog (or /blog?page=N) with the list in it."""
    url = base_url + page_href(data.page)
    text = fill_region(template, list_region(data))
    title = "Latest Articles" if data.page <= 1 else f"Latest Articles, page {data.page}"
    return _set_head(
        text,
        title=title,
        description=(
            "Articles on fast websites, sales funnels, SEO and AI automation for small businesses."
        ),
        url=url,
        extra=[
            _feed_link(base_url),
            _data_meta({"kind": "list", "page": data.model_dump(mode="json")}),
        ],
    )


def article_page(template: str, article: PublishedArticleOut, base_url: str) -> str:
    """/blog/{slug} with the article in it and its head tags."""
    url = f"{base_url}/blog/{article.slug}"
    description = article.meta_description or article.title
    brand = site_name(template)
    structured = {
        "@context": "https://schema.org",
        "@type": "Article",
        "headline": article.title[:110],
        "description": description,
        "datePublished": article.published_at.isoformat(),
        "dateModified": article.updated_at.isoformat(),
        "mainEntityOfPage": url,
        "url": url,
        "image": f"{base_url}/og-image.jpg",
        "keywords": ", ".join(article.keywords),
        "author": {"@type": "Organization", "name": brand, "url": base_url},
        "publisher": {"@type": "Organization", "name": brand, "url": base_url},
    }
    extra = [
        f'<meta property="article:published_time" content="{article.published_at.isoformat()}">',
        f'<meta property="article:modified_time" content="{article.updated_at.isoformat()}">',
        _feed_link(base_url),
        f'<script type="application/ld+json">{_json_for_script(structured)}</script>',
        _data_meta({"kind": "article", "article": article.model_dump(mode="json")}),
    ]
    text = fill_region(template, article_region(article))
    return _set_head(text, title=article.title, description=description, url=url, extra=extra)


def missing_page(template: str, path: str, base_url: str) -> str:
    """The 404 page of an unknown or unpublished article: a way back to /blog."""
    text = fill_region(template, missing_region())
    return _set_head(
        text,
        title=NOT_FOUND_TITLE,
        description=NOT_FOUND_TEXT,
        url=base_url + path,
        extra=[_data_meta({"kind": "missing"})],
        noindex=True,
    )


def bare_page(region: str, title: str) -> str:
    """A page when the web UI is not built (the API-only server): the region alone."""
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)} | {SITE_NAME}</title></head>"
        f"<body><main>{region}</main></body></html>"
    )
