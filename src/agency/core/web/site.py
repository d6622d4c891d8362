"""Serves the built web UI from memory, in front of the Quart app.

An ASGI layer rather than Quart routes: the built site is a few megabytes, so every file and its
precompressed variants are read once at start-up and answered without Quart's request
machinery. Anything it does not know (the API, docs, server-rendered pages) goes to Quart.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import mimetypes
import string
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Protocol

import brotli

from agency.core.modules import HtmlFilter
from agency.core.web.asgi import ASGIApp, Receive, Scope, Send
from agency.core.web.compression import accepted_encodings

log = logging.getLogger(__name__)


IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
SHORT = "public, max-age=3600"
TEXT_TYPES = {
    "text/html",
    "text/css",
    "text/javascript",
    "application/json",
    "image/svg+xml",
    "application/xml",
    "text/plain",
    "application/manifest+json",
    "text/xml",
}
EXTRA_TYPES = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".webmanifest": "application/manifest+json",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".woff2": "font/woff2",
    ".map": "application/json",
    ".txt": "text/plain",
}


class BuildTree(Protocol):
    """The files of one web UI build, by their path relative to its root (`assets/x.js`)."""

    def names(self) -> list[str]: ...

    def has(self, relative: str) -> bool: ...

    def read(self, relative: str) -> bytes: ...


class DirectoryTree:
    """A build as a directory (`webui/dist`, or `agency/web` in a wheel)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def names(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(
            p.relative_to(self.root).as_posix() for p in self.root.rglob("*") if p.is_file()
        )

    def has(self, relative: str) -> bool:
        return (self.root / relative).is_file()

    def read(self, relative: str) -> bytes:
        return (self.root / relative).read_bytes()


class ZipTree:
    """A build as one zip file (`agency/web.zip` in the one-file binary, which unpacks every
    file it holds at each start: one archive is one file to write instead of hundreds)."""

    def __init__(self, path: Path) -> None:
        with zipfile.ZipFile(path) as archive:
            self._files = {
                info.filename: archive.read(info)
                for info in archive.infolist()
                if not info.is_dir()
            }

    def names(self) -> list[str]:
        return sorted(self._files)

    def has(self, relative: str) -> bool:
        return relative in self._files

    def read(self, relative: str) -> bytes:
        return self._files[relative]


def build_tree(root: Path) -> BuildTree:
    """The build at `root`: a zip file, else a directory (which may not exist)."""
    return ZipTree(root) if root.suffix == ".zip" and root.is_file() else DirectoryTree(root)


def content_type_for(path: PurePosixPath | Path) -> str:
    kind = EXTRA_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0]
    kind = kind or "application/octet-stream"
    return f"{kind}; charset=utf-8" if kind in TEXT_TYPES else kind


@dataclass
class Entry:
    """One servable resource with its encodings and ready-made headers."""

    variants: dict[str, bytes]
    content_type: str
    cache_control: str
    etag: str = ""
    headers: dict[str, list[tuple[bytes, bytes]]] = field(default_factory=dict)

    @classmethod
    def load(
        cls, tree: BuildTree, relative: str, cache_control: str, common: list[tuple[bytes, bytes]]
    ) -> Entry:
        variants = {"identity": tree.read(relative)}
        for encoding, suffix in (("br", ".br"), ("gzip", ".gz")):
            if tree.has(relative + suffix):
                variants[encoding] = tree.read(relative + suffix)
        return cls.from_variants(
            variants, content_type_for(PurePosixPath(relative)), cache_control, common
        )

    @classmethod
    def compressed(
        cls, body: bytes, content_type: str, cache_control: str, common: list[tuple[bytes, bytes]]
    ) -> Entry:
        """An entry for a body made at start-up. Brotli quality 7 is within 1% of quality 11
        on our pages at a thirtieth of the time, which keeps start-up fast."""
        variants = {
            "identity": body,
            "br": brotli.compress(body, quality=7),
            "gzip": gzip.compress(body, compresslevel=9, mtime=0),
        }
        return cls.from_variants(variants, content_type, cache_control, common)

    @classmethod
    def from_variants(
        cls,
        variants: dict[str, bytes],
        content_type: str,
        cache_control: str,
        common: list[tuple[bytes, bytes]],
    ) -> Entry:
        etag = '"' + hashlib.blake2s(variants["identity"], digest_size=12).hexdigest() + '"'
        entry = cls(variants, content_type, cache_control, etag)
        for encoding, body in variants.items():
            headers = [
                (b"content-type", entry.content_type.encode()),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", cache_control.encode()),
                (b"etag", etag.encode()),
                *common,
            ]
            if len(variants) > 1:
                headers.append((b"vary", b"Accept-Encoding"))
            if encoding != "identity":
                headers.append((b"content-encoding", encoding.encode()))
            entry.headers[encoding] = headers
        return entry

    def choose(self, accept_encoding: str) -> str:
        if len(self.variants) == 1:
            return "identity"
        accepted = accepted_encodings(accept_encoding)
        for encoding in ("br", "gzip"):
            if encoding in self.variants and encoding in accepted:
                return encoding
        return "identity"


_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
INDEX_FILE = "/index.html"
# Built pages of parameterised routes (`/blog/:slug`), listed in routes.json's "templates":
# never served as files, only filled by a server page's route.
TEMPLATES_DIR = "_templates/"
# The "Page not found" page, prerendered once: the body of every 404 for a path no page,
# route or file answers (core/web: the HTTP 404 handler). Never served as a file.
NOT_FOUND_FILE = "404.html"


def path_key(path: str) -> str:
    """How routes compare a (decoded) path: trailing slashes dropped, ASCII letters lower-cased
    (no other character folds to one). The client's `pathKey` (webui/src/lib/router.tsx)."""
    return (path.rstrip("/") or path[:1]).translate(_ASCII_LOWER)


@dataclass(frozen=True)
class RouteMatch:
    pattern: str
    prerendered: bool


class RouteTable:
    """Which page of the web UI a URL path shows, by the build's routes.json.

    The same rules as the client's `matchRoute` (webui/src/app/routes.tsx), and both are
    checked against one table of cases (webui/test/fixtures/route-cases.json): a prerendered
    page's own `index.html`; else the pattern equal to the path without trailing slashes and
    with ASCII letters lower-cased, a static pattern before a `:param` one; a `:param` takes
    one segment, but not `.` or `..`. The path comes decoded, as the ASGI server hands it over.
    """

    def __init__(self, prerendered: Iterable[str], spa: Iterable[str]) -> None:
        routes = [RouteMatch(p, True) for p in prerendered] + [RouteMatch(p, False) for p in spa]
        self.pages = {r.pattern for r in routes if r.prerendered}
        self.static = {r.pattern: r for r in routes if ":" not in r.pattern}
        self.dynamic = [(r, r.pattern.split("/")) for r in routes if ":" in r.pattern]

    def match(self, path: str) -> RouteMatch | None:
        if path.endswith(INDEX_FILE):
            page = path[: -len(INDEX_FILE)] or "/"
            if page in self.pages:
                return RouteMatch(page, True)
        key = path_key(path)
        found = self.static.get(key)
        if found is not None:
            return found
        given = key.split("/")
        for route, segments in self.dynamic:
            if len(segments) == len(given) and all(
                given[i] not in ("", ".", "..") if segment.startswith(":") else given[i] == segment
                for i, segment in enumerate(segments)
            ):
                return route
        return None


class SiteFiles:
    """The resources of one built web UI, indexed by URL path."""

    def __init__(
        self,
        root: Path,
        common_headers: list[tuple[str, str]],
        html_filter: HtmlFilter | None = None,
        server_pages: Iterable[str] = (),
    ) -> None:
        self.root = root
        common = [(k.lower().encode(), v.encode()) for k, v in common_headers]
        self.files: dict[str, Entry] = {}
        self.routes = RouteTable((), ())
        self.spa: Entry | None = None
        # The built "Page not found" page (filtered), or None when the build has none.
        self.not_found_html: str | None = None
        # Route patterns a module's blueprint answers per request (Module.server_pages), and
        # the built HTML of each (filtered), which those routes fill in.
        self.server_pages = frozenset(server_pages)
        self.templates: dict[str, str] = {}
        # The data the templates were rendered with (routes.json "template_catalogue": the
        # catalogue of config/catalogue.toml), or None: the module that fills them compares it
        # with its current data and serves the client shell while they differ.
        self.template_data: Any = None
        # Public pages for /sitemap.xml (from the build's route table).
        self.sitemap_paths: list[str] = []
        tree = build_tree(root)
        if not tree.has("index.html"):
            log.warning("web UI not built: %s has no index.html; only the API is served", root)
            return
        manifest = json.loads(tree.read("routes.json")) if tree.has("routes.json") else {}
        for relative in tree.names():
            path = PurePosixPath(relative)
            if path.suffix in (".br", ".gz") or relative == "routes.json":
                continue
            if relative.startswith(TEMPLATES_DIR):
                continue  # loaded below, by pattern
            if relative == NOT_FOUND_FILE:
                text = tree.read(relative).decode("utf-8")
                self.not_found_html = html_filter(relative, text) if html_filter else text
                continue
            if relative.startswith("assets/"):
                cache = IMMUTABLE
            elif path.suffix == ".html":
                cache = REVALIDATE
            else:
                cache = SHORT
            if html_filter is not None and path.suffix == ".html":
                text = html_filter(relative, tree.read(relative).decode("utf-8"))
                entry = Entry.compressed(text.encode(), content_type_for(path), cache, common)
            else:
                entry = Entry.load(tree, relative, cache, common)
            if relative == "spa.html":
                self.spa = entry
                continue
            self.files["/" + relative] = entry
            if path.name == "index.html":
                # A page's directory URL, with and without the trailing slash.
                directory = "/" + relative.removesuffix("index.html")
                self.files[directory] = entry
                if directory != "/":
                    self.files[directory.rstrip("/")] = entry
        for pattern, relative in dict(manifest.get("templates", {})).items():
            if tree.has(relative):
                text = tree.read(relative).decode("utf-8")
                self.templates[pattern] = html_filter(relative, text) if html_filter else text
        for pattern in self.server_pages:
            built = self.files.get(pattern)
            if pattern not in self.templates and built is not None:
                self.templates[pattern] = built.variants["identity"].decode()
        missing = [p for p in manifest.get("prerendered", []) if p not in self.files]
        if missing:
            log.warning("prerendered pages missing from the build: %s", ", ".join(missing))
        self.template_data = manifest.get("template_catalogue")
        self.routes = RouteTable(manifest.get("prerendered", []), manifest.get("spa", []))
        self.sitemap_paths = [str(p) for p in manifest.get("sitemap", [])]

    def page_template(self, pattern: str) -> str | None:
        """The built HTML of a server page's route (`/blog`, `/blog/:slug`), its tokens filled,
        for the route to fill with data; None when the web UI is not built."""
        return self.templates.get(pattern)

    def server_path(self, path: str) -> str | None:
        """The normalised path (see `path_key`, no `/index.html`) when `path` shows a server
        page, else None."""
        if not self.server_pages:
            return None
        route = self.routes.match(path)
        if route is None or route.pattern not in self.server_pages:
            return None
        if path.endswith(INDEX_FILE):
            path = path[: -len(INDEX_FILE)] or "/"
        return path_key(path)

    def lookup(self, path: str) -> Entry | None:
        """The file at `path` (decoded), else the page its route shows (see RouteTable)."""
        entry = self.files.get(path)
        if entry is not None:
            return entry
        route = self.routes.match(path)
        if route is None:
            return None
        return self.files.get(route.pattern) if route.prerendered else self.spa


class StaticSite:
    """ASGI middleware: answers GET/HEAD for files of the built UI, passes the rest on."""

    def __init__(self, app: ASGIApp, files: SiteFiles, passthrough: tuple[str, ...]) -> None:
        self.app = app
        self.site = files
        self.passthrough = passthrough

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path.startswith(self.passthrough):
            await self.app(scope, receive, send)
            return
        server_path = self.site.server_path(path)
        if server_path is not None:
            # A module fills this page per request: Quart's route sees the normalised path.
            scope = {**scope, "path": server_path, "raw_path": server_path.encode()}
            await self.app(scope, receive, send)
            return
        entry = self.site.lookup(path)
        if entry is None:
            await self.app(scope, receive, send)
            return
        accept_encoding = ""
        if_none_match = ""
        for name, value in scope["headers"]:
            if name == b"accept-encoding":
                accept_encoding = value.decode("latin-1")
            elif name == b"if-none-match":
                if_none_match = value.decode("latin-1")
        encoding = entry.choose(accept_encoding)
        headers = entry.headers[encoding]
        if if_none_match and entry.etag in if_none_match:
            await send(
                {
                    "type": "http.response.start",
                    "status": 304,
                    "headers": [h for h in headers if h[0] != b"content-length"],
                }
            )
            await send({"type": "http.response.body", "body": b""})
            return
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        body = b"" if scope["method"] == "HEAD" else entry.variants[encoding]
        await send({"type": "http.response.body", "body": body})
