"""Article bodies written in Markdown: rendered here with markdown-it-py, then sanitised by the
same allow-list as HTML bodies (`sanitise`). Saving and the editor's preview both call
`render_body`, so the preview shows exactly what will be saved.

CommonMark with tables and strikethrough (as `agency articles import`); HTML inside the
Markdown is allowed and goes through the sanitiser like any other HTML, so a body written in
HTML reads the same when it is switched to Markdown."""

from __future__ import annotations

from typing import Literal

from markdown_it import MarkdownIt

from agency.modules.blog.service.sanitise import sanitise

BodyFormat = Literal["markdown", "html"]
BODY_FORMATS: tuple[BodyFormat, ...] = ("markdown", "html")

_markdown = MarkdownIt("commonmark", {"typographer": True}).enable(["table", "strikethrough"])


def markdown_html(source: str) -> str:
    """Markdown rendered to HTML, not yet sanitised."""
    html: str = _markdown.render(source)
    return html


def render_body(body_format: BodyFormat, body: str) -> str:
    """The body as it is saved and shown: Markdown rendered then sanitised, or HTML sanitised."""
    if body_format == "markdown":
        return sanitise(markdown_html(body))
    return sanitise(body)
