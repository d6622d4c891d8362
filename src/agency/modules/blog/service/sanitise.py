"""The HTML an article may hold: an allow-list, applied when an article is saved and again
when it is shown (an AI or a pasted snippet must never bring a script into our pages)."""

from __future__ import annotations

import nh3

ALLOWED_TAGS = {
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "strong", "b", "em", "i", "u", "s",
    "del", "ins", "mark", "small", "sub", "sup", "code", "pre", "kbd", "blockquote", "q", "cite",
    "ul", "ol", "li", "dl", "dt", "dd", "a", "img", "figure", "figcaption", "table", "caption",
    "thead", "tbody", "tfoot", "tr", "th", "td", "span", "div", "abbr",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "ol": {"start"},
    "th": {"colspan", "rowspan", "scope"},
    "td": {"colspan", "rowspan"},
    "abbr": {"title"},
}
# Images and links: http(s) and relative addresses; links also mailto: and tel:. Anything
# else (javascript:, data:, vbscript:, ...) loses the attribute.
URL_SCHEMES = {"http", "https", "mailto", "tel"}
# Removed with their content (not only the tags): code and styles must not turn into text.
CLEAN_CONTENT_TAGS = {"script", "style", "template", "noscript", "iframe", "object", "embed"}


def sanitise(content: str) -> str:
    """Article HTML with only allow-listed tags and attributes: no script, style, event
    handler, `javascript:` URL, iframe, form, object or embed; every link gets
    rel="noopener noreferrer". Sanitising sanitised HTML changes nothing."""
    return nh3.clean(
        content,
        tags=ALLOWED_TAGS,
        clean_content_tags=CLEAN_CONTENT_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer",
        tag_attribute_values={"img": {"loading": {"lazy", "eager"}, "decoding": {"async", "auto"}}},
        strip_comments=True,
    )
