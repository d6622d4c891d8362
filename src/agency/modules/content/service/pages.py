"""Site content the agency edits without code: public site details from the settings (phone,
contact e-mail, scheduling URL, content-engine plans) and the Markdown pages in `config/pages/`.

Both reach the prerendered HTML at start-up: the web UI's build renders tokens
(`__AGENCY_PHONE__`, `<!--agency-page:privacy-->`, ...) that `html_filter` replaces with the
configured values, and every page's `<meta name="agency-site">` carries the same values as JSON,
so the client renders exactly what the HTML shows (webui/src/lib/site-config.ts).

Also here: the checks of the content-engine plan mapping (`check_settings`, run at start-up
through the module descriptor), the origin the CSP lets pages frame (`frame_origins`), and the
text of `/robots.txt` and `/sitemap.xml`.
"""

from __future__ import annotations

import html
import json
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import nh3
from markdown_it import MarkdownIt

from agency.core.errors import AppError
from agency.core.paths import config_dir
from agency.modules.content.service import claims
from agency.modules.content.settings import ContentSettings
from agency.modules.legal import api as legal_api

log = logging.getLogger(__name__)

# The content-engine landing routes and the plans each may sell (DECISIONS.md: configuration).
CONTENT_ENGINE_ROUTES = (
    "/ai-scale-startup",
    "/ai-scale-startup2",
    "/ai-scale-startup3",
    "/ai-scale-startup4",
)
CONTENT_ENGINE_PLAN_KEYS = ("ai-scale-builder", "ai-scale-plan", "ai-scale-growth")
DEFAULT_CONTENT_ENGINE_PLANS = {
    "/ai-scale-startup": "ai-scale-builder",
    "/ai-scale-startup2": "ai-scale-plan",
    "/ai-scale-startup3": "ai-scale-growth",
    "/ai-scale-startup4": "ai-scale-builder",
}

# The footer pages rendered from Markdown (file `<name>.md`, route `/<name>`).
CONTENT_PAGE_NAMES = ("faq", "about", "contact", "careers", "privacy", "terms", "cookies")
# The legal notice: built from the seller's details (legal module), not from a file.
IMPRINT = "imprint"
IMPRINT_TITLE = "Legal notice"

TOKEN_SITE = "__AGENCY_SITE__"
TOKEN_BASE_URL = "__AGENCY_BASE_URL__"
TOKEN_PHONE = "__AGENCY_PHONE__"
TOKEN_PHONE_HREF = "__AGENCY_PHONE_HREF__"
TOKEN_CONTACT_EMAIL = "__AGENCY_CONTACT_EMAIL__"
TOKEN_SCHEDULING_URL = "__AGENCY_SCHEDULING_URL__"
TOKEN_BRAND = "__AGENCY_BRAND__"
TOKEN_CONTENT_ENGINE_PLAN = "__AGENCY_CONTENT_ENGINE_PLAN__"
PAGE_MARKER = re.compile(r"<!--agency-page:([a-z0-9-]+)-->")

# What Markdown pages may contain once rendered (the agency writes them, but a copied snippet
# must still not bring scripts, styles or event handlers into our pages).
ALLOWED_TAGS = {
    "h1", "h2", "h3", "h4", "p", "br", "hr", "strong", "em", "code", "pre", "blockquote",
    "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td", "del",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"}}


def check_settings(settings: ContentSettings) -> list[tuple[str, str]]:
    """What is wrong with the content-engine plan mapping or the claims file, as (settings
    key, message) pairs."""
    try:
        claims.load(settings.claims_file, urgency=settings.urgency_claims)
    except AppError as error:
        return [("claims_file", error.message)]
    value = settings.content_engine_plans
    unknown_routes = sorted(set(value) - set(CONTENT_ENGINE_ROUTES))
    if unknown_routes:
        message = (
            f"unknown route(s) {', '.join(unknown_routes)}; "
            f"routes are {', '.join(CONTENT_ENGINE_ROUTES)}"
        )
        return [("content_engine_plans", message)]
    bad_plans = sorted({plan for plan in value.values() if plan not in CONTENT_ENGINE_PLAN_KEYS})
    if bad_plans:
        message = (
            f"unknown plan(s) {', '.join(bad_plans)}; "
            f"plans are {', '.join(CONTENT_ENGINE_PLAN_KEYS)}"
        )
        return [("content_engine_plans", message)]
    return []


def content_engine_plans(settings: ContentSettings) -> dict[str, str]:
    """The plan each content-engine route sells: a partial mapping overrides only its routes."""
    return {**DEFAULT_CONTENT_ENGINE_PLANS, **settings.content_engine_plans}


def frame_origins(settings: ContentSettings) -> tuple[str, ...]:
    """`scheme://host[:port]` of the scheduling page, the one origin the CSP lets pages frame
    (the booking calendar is an iframe: no third-party script may run here)."""
    if not settings.scheduling_url:
        return ()
    parts = urlsplit(settings.scheduling_url)
    return (f"{parts.scheme}://{parts.netloc}",)


def pages_dir(settings: ContentSettings) -> Path:
    """The folder of the Markdown pages: `pages_dir`, else the bundled `config/pages`."""
    return settings.pages_dir or config_dir() / "pages"


def tel_href(phone: str) -> str:
    """`tel:` link of a displayed phone number: "+49 30 1234 5678" -> "tel:+493012345678"."""
    return "tel:" + re.sub(r"[^+\d]", "", phone)


@dataclass(frozen=True)
class SiteDetails:
    """Public site details, as the web UI reads them."""

    phone: str
    contact_email: str
    scheduling_url: str
    content_engine_plans: dict[str, str]
    base_url: str = "http://127.0.0.1:8000"

    # The seller placeholders of the Markdown pages ({seller_name}, ...) and their values.
    seller: dict[str, str] = field(default_factory=dict)
    # The operator's claims that show (content.claims): key -> text, a section -> "on".
    claims: dict[str, str] = field(default_factory=dict)
    # The name the site trades under (the legal module's brand_name): the footer's copyright.
    brand_name: str = "agency"
    # /ugc-force's sample video and its poster (URL paths), or "" for the phone frame.
    ugc_sample_video: str = ""
    ugc_sample_poster: str = ""
    ugc_sample_captions: str = ""

    @classmethod
    def from_settings(cls, settings: ContentSettings) -> SiteDetails:
        return cls(
            base_url=settings.public_url,
            # The pages' contact is the seller's unless a separate one is configured.
            phone=settings.contact_phone or settings.seller_phone,
            contact_email=settings.contact_email or settings.seller_email,
            scheduling_url=settings.scheduling_url,
            content_engine_plans=content_engine_plans(settings),
            seller=legal_api.placeholders(settings),
            claims=claims.load(settings.claims_file, urgency=settings.urgency_claims),
            brand_name=settings.brand_name,
            ugc_sample_video=settings.ugc_sample_video,
            ugc_sample_poster=settings.ugc_sample_poster,
            ugc_sample_captions=settings.ugc_sample_captions,
        )

    def client_json(self) -> str:
        """The `SiteConfig` object of webui/src/lib/site-config.ts."""
        return json.dumps(
            {
                "baseUrl": self.base_url,
                "phone": self.phone,
                "phoneHref": tel_href(self.phone),
                "contactEmail": self.contact_email,
                "schedulingUrl": self.scheduling_url,
                "contentEnginePlans": self.content_engine_plans,
                "claims": self.claims,
                "brandName": self.brand_name,
                "ugcSampleVideo": (
                    {
                        "src": self.ugc_sample_video,
                        "poster": self.ugc_sample_poster,
                        "captions": self.ugc_sample_captions,
                    }
                    if self.ugc_sample_video
                    else None
                ),
            },
            separators=(",", ":"),
        )

    def plan_for(self, route: str) -> str:
        return self.content_engine_plans.get(
            route, DEFAULT_CONTENT_ENGINE_PLANS["/ai-scale-startup"]
        )


@dataclass(frozen=True)
class ContentPage:
    name: str
    title: str
    html: str


_markdown = MarkdownIt("commonmark", {"typographer": True}).enable(["table", "strikethrough"])


def render_markdown(text: str) -> str:
    """Markdown to sanitised HTML (allow-listed tags; links get safe `rel`)."""
    return nh3.clean(
        _markdown.render(text),
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto", "tel"},
        link_rel="noopener noreferrer",
    )


def _title_of(text: str, fallback: str) -> str:
    match = re.search(r"^#\s+(.+?)\s*#*\s*$", text, flags=re.MULTILINE)
    return match.group(1) if match else fallback


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!<>|~&])")
_SELLER_PLACEHOLDER = re.compile(r"\{(seller_[a-z_]+|brand_name)\}")


def markdown_text(value: str) -> str:
    """Plain text as Markdown that renders as exactly that text (punctuation escaped)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", value)


def fill_placeholders(text: str, details: SiteDetails) -> str:
    """`{email}` and `{phone}` in a Markdown page -> Markdown links to the configured ones;
    `{seller_name}`, `{seller_address}`, `{seller_email}`, ... -> the seller's details (the
    legal module's), an unknown one left as written."""
    email = f"[{details.contact_email}](mailto:{details.contact_email})"
    phone = f"[{details.phone}]({tel_href(details.phone)})"
    text = text.replace("{email}", email).replace("{phone}", phone)

    def seller_value(match: re.Match[str]) -> str:
        name = match.group(1)
        value = details.seller.get(name)
        if value is None:
            return match.group(0)
        if name == "seller_email":
            return f"[{markdown_text(value)}](mailto:{value})"
        if name == "seller_phone":
            return f"[{markdown_text(value)}]({tel_href(value)})"
        return markdown_text(value)

    return _SELLER_PLACEHOLDER.sub(seller_value, text)


class ContentPages:
    """The Markdown pages of one directory, read and rendered once (at start-up)."""

    def __init__(self, directory: Path, details: SiteDetails, imprint_html: str = "") -> None:
        self.directory = directory
        self.pages: dict[str, ContentPage] = {}
        if imprint_html:
            self.pages[IMPRINT] = ContentPage(IMPRINT, IMPRINT_TITLE, imprint_html)
        for name in CONTENT_PAGE_NAMES:
            path = directory / f"{name}.md"
            try:
                text = path.read_text(encoding="utf-8")
            except OSError:
                log.warning("content page %s not found: %s", name, path)
                continue
            except UnicodeDecodeError:
                log.warning("content page %s is not UTF-8 text: %s", name, path)
                continue
            title = _title_of(text, name.title())
            html_text = render_markdown(fill_placeholders(text, details))
            self.pages[name] = ContentPage(name, title, html_text)

    def get(self, name: str) -> ContentPage | None:
        return self.pages.get(name)

    def html_for(self, name: str) -> str:
        page = self.pages.get(name)
        if page is None:
            return "<p>This page is being written. Please contact us in the meantime.</p>"
        return page.html


def route_of(relative_html_path: str) -> str:
    """URL path of a built HTML file: "index.html" -> "/", "faq/index.html" -> "/faq"."""
    if relative_html_path == "index.html":
        return "/"
    return "/" + relative_html_path.removesuffix("/index.html").removesuffix(".html")


def html_filter(details: SiteDetails, pages: ContentPages) -> Callable[[str, str], str]:
    """(relative path of a built HTML file, its text) -> the text with every token filled in."""
    site_json = html.escape(details.client_json(), quote=True)
    fixed = {
        TOKEN_SITE: site_json,
        TOKEN_BASE_URL: html.escape(details.base_url, quote=True),
        TOKEN_PHONE_HREF: html.escape(tel_href(details.phone), quote=True),
        TOKEN_PHONE: html.escape(details.phone, quote=True),
        TOKEN_CONTACT_EMAIL: html.escape(details.contact_email, quote=True),
        TOKEN_SCHEDULING_URL: html.escape(details.scheduling_url, quote=True),
        TOKEN_BRAND: html.escape(details.brand_name, quote=True),
    }
    # Longest first: __AGENCY_PHONE_HREF__ must not be eaten by __AGENCY_PHONE__.
    pattern = re.compile(
        "|".join(re.escape(t) for t in sorted([*fixed, TOKEN_CONTENT_ENGINE_PLAN], key=len)[::-1])
    )

    def fill(relative: str, text: str) -> str:
        route = route_of(relative)

        def token_value(match: re.Match[str]) -> str:
            token = match.group(0)
            if token == TOKEN_CONTENT_ENGINE_PLAN:
                return html.escape(details.plan_for(route), quote=True)
            return fixed[token]

        text = claims.fill(pattern.sub(token_value, text), details.claims)
        return PAGE_MARKER.sub(lambda m: pages.html_for(m.group(1)), text)

    return fill


ROBOTS = """User-agent: *
Allow: /
Disallow: /dashboard
Disallow: /api/
Disallow: /success
Sitemap: {base}/sitemap.xml
"""


def robots_txt(base_url: str) -> str:
    """Crawler rules, pointing at the sitemap by its absolute address."""
    return ROBOTS.format(base=base_url)


def sitemap_xml(
    base_url: str, paths: Iterable[str], dated: Iterable[tuple[str, datetime]] = ()
) -> str:
    """The sitemap of the given public paths, by absolute address, then the `dated` ones (the
    blog's articles) with their last change as `<lastmod>`."""
    urls = "".join(f"<url><loc>{html.escape(base_url + path)}</loc></url>" for path in paths)
    urls += "".join(
        f"<url><loc>{html.escape(base_url + path)}</loc>"
        f"<lastmod>{changed.astimezone(UTC).isoformat(timespec='seconds')}</lastmod></url>"
        for path, changed in dated
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'
    )
