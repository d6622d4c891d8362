"""Write the cases that keep the blog's server markup and its React markup one and the same.

    .venv/bin/python scripts/dump_blog_render_cases.py [OUTPUT]

OUTPUT defaults to webui/test/fixtures/blog-render-cases.json: for each case, the data the
server embeds in the page (`<meta name="agency-blog">`) and the HTML it writes for it
(`agency.modules.blog.service.pages`). `webui/src/features/blog/BlogRegion.test.tsx` renders
the same data with React and requires the same DOM, which is what hydration needs;
`tests/blog/test_render_cases.py` fails when the committed file is stale.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agency.modules.blog.schemas import (
    ArticleSummaryOut,
    AuthorOut,
    BlogPageOut,
    CoverOut,
    PublishedArticleOut,
)
from agency.modules.blog.service import pages
from agency.modules.blog.service.sanitise import sanitise

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "webui" / "test" / "fixtures" / "blog-render-cases.json"
COMMAND = "scripts/dump_blog_render_cases.py"


def _summary(n: int, title: str, description: str, day: int) -> ArticleSummaryOut:
    return ArticleSummaryOut(
        id=n,
        title=title,
        slug=f"article-{n}",
        meta_description=description,
        published_at=datetime(2026, 1 + n % 12, day, 23, 30, tzinfo=UTC),
    )


COVER = CoverOut(
    url="/api/blog/covers/0123456789abcdef0123456789abcdef-960.jpg",
    srcset=(
        "/api/blog/covers/0123456789abcdef0123456789abcdef-480.jpg 480w, "
        "/api/blog/covers/0123456789abcdef0123456789abcdef-960.jpg 960w, "
        "/api/blog/covers/0123456789abcdef0123456789abcdef-1440.jpg 1440w"
    ),
    width=1440,
    height=810,
    alt='A "fast" <site>',
)


def _article(keywords: list[str], **extra: Any) -> PublishedArticleOut:
    return PublishedArticleOut(
        id=3,
        title='Speed & "Sales" <fast>',
        slug="speed-sales-fast",
        meta_description="Why 'fast' sells.",
        keywords=keywords,
        content=sanitise('<h2>Why</h2><p>Because <a href="https://example.com">this</a>.</p>'),
        published_at=datetime(2026, 12, 31, 23, 59, tzinfo=UTC),
        updated_at=datetime(2027, 1, 1, 8, 0, tzinfo=UTC),
        **extra,
    )


def cases() -> list[dict[str, Any]]:
    one = [_summary(1, "Clinic <Sites> & More", 'Fast "pages"', 1)]
    many = [_summary(n, f"Post {n}", f"About {n}'s topic", n) for n in range(2, 5)]
    pages_out = [
        ("list-empty", BlogPageOut(articles=[], page=1, pages=1, total=0)),
        ("list-one", BlogPageOut(articles=one, page=1, pages=1, total=1)),
        ("list-first-of-three", BlogPageOut(articles=many, page=1, pages=3, total=27)),
        ("list-middle", BlogPageOut(articles=many, page=2, pages=3, total=27)),
        ("list-last", BlogPageOut(articles=one, page=3, pages=3, total=25)),
        (
            "list-with-cover",
            BlogPageOut(
                articles=[one[0].model_copy(update={"cover": COVER})], page=1, pages=1, total=1
            ),
        ),
    ]
    out: list[dict[str, Any]] = [
        {
            "name": name,
            "data": {"kind": "list", "page": data.model_dump(mode="json")},
            "html": pages.list_region(data),
        }
        for name, data in pages_out
    ]
    for name, article in (
        ("article", _article(["speed", "sales & funnels"])),
        ("article-no-keywords", _article([])),
        (
            "article-full",
            _article(
                ["speed"],
                call_to_action="start",
                cover=COVER,
                author=AuthorOut(name="Anna <Admin>", bio="Builds fast sites & funnels."),
                related=[*one, many[0]],
            ),
        ),
        (
            "article-german",
            _article(
                ["tempo"],
                language="de",
                author=AuthorOut(name="Jörg Müller", bio=""),
                related=[many[1]],
            ),
        ),
    ):
        out.append(
            {
                "name": name,
                "data": {"kind": "article", "article": article.model_dump(mode="json")},
                "html": pages.article_region(article),
            }
        )
    out.append({"name": "missing", "data": {"kind": "missing"}, "html": pages.missing_region()})
    return out


def render(value: list[dict[str, Any]]) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    output = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUTPUT
    output.write_text(render(cases()), encoding="utf-8")
    print(f"wrote {output}")


if __name__ == "__main__":
    main()
