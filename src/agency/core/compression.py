"""Compression of the responses Quart builds (the API's JSON, server-rendered pages).

The built web UI is served precompressed by `core.site`; this covers the rest, such as the
16 kB catalogue every pricing section fetches. Streams (server-sent events, file downloads)
pass untouched: only complete in-memory bodies are compressed.
"""

from __future__ import annotations

import gzip
import re

import brotli
from quart import Response
from quart.wrappers.response import DataBody

# Smaller bodies gain little and cost a round of CPU.
MIN_SIZE = 1024
COMPRESSIBLE = re.compile(
    r"^(?:text/(?!event-stream)[\w.+-]+|application/(?:[\w.+-]+\+)?(?:json|xml|javascript)"
    r"|image/svg\+xml)\b",
    re.IGNORECASE,
)
# Quick settings: these bodies are made per request, not once at build time.
BROTLI_QUALITY = 4
GZIP_LEVEL = 6


def accepted_encodings(header: str) -> set[str]:
    """The content codings an Accept-Encoding header allows (any q above zero)."""
    accepted = set()
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if "q=0" in params.replace(" ", "") and not re.search(r"q=0\.\d*[1-9]", params):
            continue
        accepted.add(name.strip().lower())
    return accepted


def choose_encoding(accept_encoding: str) -> str | None:
    """Brotli when the client takes it, else gzip, else None."""
    accepted = accepted_encodings(accept_encoding)
    for encoding in ("br", "gzip"):
        if encoding in accepted:
            return encoding
    return None


def compress(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return bytes(brotli.compress(body, quality=BROTLI_QUALITY))
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


async def compress_response(response: Response, accept_encoding: str) -> Response:
    """Compresses `response` in place when it is worth it and the client can read it."""
    if (
        not isinstance(response.response, DataBody)
        or "Content-Encoding" in response.headers
        or "Content-Range" in response.headers
        or response.status_code in (204, 206, 304)
        or not COMPRESSIBLE.match(response.mimetype or "")
    ):
        return response
    response.vary.add("Accept-Encoding")
    encoding = choose_encoding(accept_encoding)
    body = await response.get_data(as_text=False)
    if encoding is None or len(body) < MIN_SIZE:
        return response
    response.set_data(compress(body, encoding))
    response.headers["Content-Encoding"] = encoding
    etag = response.headers.get("ETag")
    if etag and not etag.startswith("W/"):
        # The same tag now names two byte sequences: weak, as nginx does (still matches the
        # routes' If-None-Match checks, which look for the quoted tag).
        response.headers["ETag"] = f"W/{etag}"
    return response
