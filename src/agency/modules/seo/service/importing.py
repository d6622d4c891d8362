"""`agency articles import FILE.md`: a Markdown file with front matter becomes a draft.

    ---
    title: Why page speed matters
    description: What a slow page costs a small business, and what to fix first.
    keywords: [page speed, small business, core web vitals]
    slug: page-speed            (optional)
    ---
    The body, in Markdown (CommonMark, with tables and strikethrough).

Front matter is the usual YAML subset: `key: value` lines, values optionally quoted, lists as
`[a, b]`, `a, b` or `- a` lines below the key. Without a title the body's first `# Heading` is
the title (and leaves the body). The draft is saved in Markdown (the editor opens it so); the
blog renders it and sanitises the result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

from agency.core.errors import ValidationFailed
from agency.modules.seo.schemas import ArticleIn
from agency.modules.seo.service import answers

META_DESCRIPTION_MAX = 300  # the blog's column
SLUG_MAX = 200
SOURCE_MAX = 100_000  # the blog's ArticleIn.source limit
KEYWORDS_MAX = 20
MSG_NO_TITLE = (
    "The file has no title: add 'title: ...' to its front matter or start it with '# Title'."
)
MSG_TOO_LONG = f"The article is too long: at most {answers.CONTENT_MAX:,} characters of HTML."
MSG_SOURCE_LONG = f"The article is too long: at most {SOURCE_MAX:,} characters of Markdown."
MSG_FRONT_MATTER = "The front matter is not closed: add a line '---' after it."

_markdown = MarkdownIt("commonmark", {"typographer": True}).enable(["table", "strikethrough"])
_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)$")
_ITEM = re.compile(r"^\s*-\s+(.*)$")
_HEADING = re.compile(r"^\s{0,3}#\s+(.+?)\s*#*\s*$")


@dataclass
class FrontMatter:
    values: dict[str, str | list[str]] = field(default_factory=dict)

    def text(self, *names: str) -> str:
        for name in names:
            value = self.values.get(name)
            if isinstance(value, list):
                return ", ".join(value)
            if value:
                return value
        return ""

    def items(self, name: str) -> list[str]:
        value = self.values.get(name)
        if isinstance(value, str):
            return _split_list(value)
        return list(value or [])


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        inner = value[1:-1]
        return inner.replace("''", "'") if value[0] == "'" else inner.replace('\\"', '"')
    return value


def _split_list(value: str) -> list[str]:
    value = value.strip()
    if value.startswith("[") and value.endswith("]"):
        value = value[1:-1]
    return [item for item in (_unquote(part) for part in value.split(",")) if item]


def split_front_matter(text: str) -> tuple[FrontMatter, str]:
    """(front matter, body) of a Markdown file; no front matter: empty, the whole text."""
    text = text.lstrip("\ufeff")
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return FrontMatter(), text
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if end is None:
        raise ValidationFailed(MSG_FRONT_MATTER)
    matter = FrontMatter()
    key: str | None = None
    for line in lines[1:end]:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = _ITEM.match(line)
        if item and key is not None:
            current = matter.values.get(key)
            items = current if isinstance(current, list) else []
            items.append(_unquote(item.group(1)))
            matter.values[key] = [i for i in items if i]
            continue
        found = _KEY.match(line.strip())
        if found is None:
            continue
        key = found.group(1).lower().replace("-", "_")
        value = found.group(2).strip()
        matter.values[key] = _split_list(value) if value.startswith("[") else _unquote(value)
    return matter, "\n".join(lines[end + 1 :])


def article_from_markdown(text: str) -> ArticleIn:
    """The draft a Markdown file describes (raises ValidationFailed with a message)."""
    matter, body = split_front_matter(text)
    title = answers.clean_line(matter.text("title"), answers.TITLE_MAX)
    if not title:
        lines = body.splitlines()
        for index, line in enumerate(lines):
            if not line.strip():
                continue
            heading = _HEADING.match(line)
            if heading:
                title = answers.clean_line(heading.group(1), answers.TITLE_MAX)
                body = "\n".join(lines[index + 1 :])
            break
    if not title:
        raise ValidationFailed(MSG_NO_TITLE, fields={"title": MSG_NO_TITLE})
    description = answers.clean_line(
        matter.text("description", "meta_description", "metadescription"), META_DESCRIPTION_MAX
    )
    keywords = answers.string_list(
        matter.items("keywords") or matter.items("tags"),
        limit=KEYWORDS_MAX,
        item_max=answers.KEYWORD_MAX,
    )
    source = answers.clean_lines(body).strip("\n")
    content = answers.clean_lines(_markdown.render(source))
    if len(source) > SOURCE_MAX:
        raise ValidationFailed(MSG_SOURCE_LONG, fields={"source": MSG_SOURCE_LONG})
    if len(content) > answers.CONTENT_MAX:
        raise ValidationFailed(MSG_TOO_LONG, fields={"content": MSG_TOO_LONG})
    # Saved as Markdown: the editor opens it in Markdown, the blog renders the same way.
    return ArticleIn(
        title=title,
        slug=answers.clean_line(matter.text("slug"), SLUG_MAX),
        meta_description=description,
        keywords=keywords,
        content=content,
        body_format="markdown",
        source=source,
    )
