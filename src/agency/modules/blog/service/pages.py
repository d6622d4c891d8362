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

from agency.modules.blog.schemas import (
    ArticleSummaryOut,
    BlogPageOut,
    CoverOut,
    Language,
    PublishedArticleOut,
)
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
MONTHS_DE = (
    "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
    "Oktober", "November", "Dezember",
)  # fmt: skip
# The words an article page writes around the article, in its language (the client's
# ARTICLE_TEXT in webui/src/features/blog/blog.ts: keep the two in step).
ARTICLE_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "published": "Published",
        "keywords": "Keywords",
        "back": BACK,
        "author": "About the author",
        "related": "Read next",
        "speed_test_title": "How fast is your website?",
        "speed_test_text": (
            "Run a free speed test and see what slows your site down and what it costs you."
        ),
        "speed_test_link": "Test your website's speed",
        "start_title": "Ready for a faster website?",
        "start_text": (
            "Tell us about your business and we'll build a fast website that brings you customers."
        ),
        "start_link": "Start your project",
    },
    "de": {
        "published": "Veröffentlicht am",
        "keywords": "Schlagwörter",
        "back": "Zurück zu allen Artikeln",
        "author": "Geschrieben von",
        "related": "Weiterlesen",
        "speed_test_title": "Wie schnell ist Ihre Website?",
        "speed_test_text": (
            "Machen Sie den kostenlosen Speed-Test und sehen Sie, was Ihre Seite bremst und "
            "was es Sie kostet."
        ),
        "speed_test_link": "Website-Geschwindigkeit testen",
        "start_title": "Bereit für eine schnellere Website?",
        "start_text": (
            "Erzählen Sie uns von Ihrem Unternehmen, und wir bauen Ihnen eine schnelle "
            "Website, die Kunden bringt."
        ),
        "start_link": "Projekt starten",
    },
}
CTA_HREF = {"speed_test": "/speed-test", "start": "/start"}
# What the cover's `sizes` say: the article column (max 960 px), a list card (about 384 px).
ARTICLE_COVER_SIZES = "(min-width: 1024px) 960px, 100vw"
CARD_COVER_SIZES = "(min-width: 1024px) 384px, (min-width: 640px) 50vw, 100vw"


def _e(text: str) -> str:
    """Escaped as React escapes text and attributes (& < > " ')."""
    return html.escape(text, quote=True)


def display_date(moment: datetime, language: Language = "en") -> str:
    """ "November 24, 2026" (UTC), in German "24. November 2026": the client's `displayDate`."""
    moment = moment.astimezone(UTC)
    if language == "de":
        return f"{moment.day}. {MONTHS_DE[moment.month - 1]} {moment.year}"
    return f"{MONTHS[moment.month - 1]} {moment.day}, {moment.year}"


def iso_date(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    return f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"


def _time(moment: datetime, language: Language = "en") -> str:
    return f'<time datetime="{iso_date(moment)}">{display_date(moment, language)}</time>'


def cover_img(cover: CoverOut, *, card: bool) -> str:
    """The cover's <img>: every size in srcset, width and height set (no layout shift). In a
    card it is decorative (the title follows) and loads lazily. The attributes in React's
    order (it writes srcset and src last)."""
    sources = f'srcset="{_e(cover.srcset)}" src="{_e(cover.url)}"'
    if card:
        return (
            f'<img class="blog-card__cover" sizes="{CARD_COVER_SIZES}" width="{cover.width}" '
            f'height="{cover.height}" alt="" loading="lazy" decoding="async" {sources}>'
        )
    return (
        f'<img class="blog-article__cover" sizes="{ARTICLE_COVER_SIZES}" width="{cover.width}" '
        f'height="{cover.height}" alt="{_e(cover.alt)}" {sources}>'
    )


def page_href(page: int) -> str:
    return "/blog" if page <= 1 else f"/blog?page={page}"


def list_region(data: BlogPageOut) -> str:
    """The list's markup: the cards, or the empty state; the page links past one page."""
    if not data.articles:
        return f'<p class="blog-empty">{EMPTY}</p>'
    cards = "".join(
        '<li class="blog-card"><article class="blog-card__inner">'
        f"{cover_img(a.cover, card=True) if a.cover else ''}"
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


def _related_item(a: ArticleSummaryOut) -> str:
    return (
        '<li class="blog-related__item">'
        f'<a class="blog-related__link" href="/blog/{_e(a.slug)}">{_e(a.title)}</a>'
        f'<p class="blog-related__text">{_e(a.meta_description)}</p>'
        "</li>"
    )


def article_region(article: PublishedArticleOut) -> str:
    """The article's markup: title, date, cover, sanitised body, keywords, then the author,
    the call to action and two related articles, and the way back; the words around the
    article in its language."""
    text = ARTICLE_TEXT[article.language]
    keywords = "".join(f"<li>{_e(k)}</li>" for k in article.keywords)
    keyword_list = (
        f'<ul class="blog-article__keywords" aria-label="{text["keywords"]}">{keywords}</ul>'
        if article.keywords
        else ""
    )
    cover = (
        f'<figure class="blog-article__figure">{cover_img(article.cover, card=False)}</figure>'
        if article.cover
        else ""
    )
    author = ""
    if article.author is not None:
        bio = (
            f'<p class="blog-author__bio">{_e(article.author.bio)}</p>'
            if article.author.bio
            else ""
        )
        author = (
            '<section class="blog-author">'
            f'<h2 class="blog-author__heading">{text["author"]}</h2>'
            f'<p class="blog-author__name">{_e(article.author.name)}</p>{bio}</section>'
        )
    cta = article.call_to_action
    action = (
        '<section class="blog-cta">'
        f'<h2 class="blog-cta__title">{_e(text[cta + "_title"])}</h2>'
        f'<p class="blog-cta__text">{_e(text[cta + "_text"])}</p>'
        f'<a class="blog-cta__link" href="{CTA_HREF[cta]}">{_e(text[cta + "_link"])}</a>'
        "</section>"
    )
    related = (
        '<section class="blog-related">'
        f'<h2 class="blog-related__heading">{text["related"]}</h2>'
        f'<ul class="blog-related__list">{"".join(_related_item(a) for a in article.related)}</ul>'
        "</section>"
        if article.related
        else ""
    )
    return (
        '<article class="blog-article">'
        f'<h1 class="blog-article__title">{_e(article.title)}</h1>'
        f'<p class="blog-article__date">{text["published"]} '
        f"{_time(article.published_at, article.language)}</p>"
        f"{cover}"
        f'<div class="prose blog-article__body">{sanitise(article.content)}</div>'
        f"{keyword_list}{author}{action}{related}"
        f'<p class="blog-article__back"><a href="/blog">{_e(text["back"])}</a></p>'
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
    cover = article.cover
    image: object = f"{base_url}/og-image.jpg"
    if cover is not None:
        image = {
            "@type": "ImageObject",
            "url": base_url + largest_url(cover),
            "width": cover.width,
            "height": cover.height,
        }
    structured = {
        "@context": "https://schema.org",
        "@type": "Article",
        "headline": article.title[:110],
        "description": description,
        "datePublished": article.published_at.isoformat(),
        "dateModified": article.updated_at.isoformat(),
        "mainEntityOfPage": url,
        "url": url,
        "image": image,
        "keywords": ", ".join(article.keywords),
        "inLanguage": article.language,
        "author": (
            {"@type": "Person", "name": article.author.name}
            if article.author is not None
            else {"@type": "Organization", "name": brand, "url": base_url}
        ),
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
    if cover is not None:
        text = _set_og_image(text, base_url + largest_url(cover), cover)
    if article.language != "en":
        text = _replace_tag(text, r'<html lang="[^"]*"', f'<html lang="{article.language}"')
    return _set_head(text, title=article.title, description=description, url=url, extra=extra)


def largest_url(cover: CoverOut) -> str:
    """The address of the cover's largest size (`width` x `height`): the last in srcset."""
    return cover.srcset.rsplit(", ", 1)[-1].split(" ", 1)[0]


def _set_og_image(text: str, url: str, cover: CoverOut) -> str:
    """Open Graph (and Twitter's) image: the cover, with its size and alt text."""
    text = _replace_tag(
        text,
        r'<meta property="og:image" content="[^"]*"\s*/?>',
        f'<meta property="og:image" content="{_e(url)}">',
    )
    text = _replace_tag(
        text,
        r'<meta name="twitter:image" content="[^"]*"\s*/?>',
        f'<meta name="twitter:image" content="{_e(url)}">',
    )
    for key in ("og:image:width", "og:image:height", "og:image:alt"):
        text = re.sub(rf'<meta property="{key}" content="[^"]*"\s*/?>', "", text)
    size = (
        "" if 'property="og:image"' in text else f'<meta property="og:image" content="{_e(url)}">'
    )
    size += (
        f'<meta property="og:image:width" content="{cover.width}">'
        f'<meta property="og:image:height" content="{cover.height}">'
    )
    if cover.alt:
        size += f'<meta property="og:image:alt" content="{_e(cover.alt)}">'
    return text.replace("</head>", size + "</head>", 1)


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
