"""Compression of the responses Quart builds (the API's JSON, server-rendered pages).

The built web UI is served precompressed by `core.site`; this covers the rest, such as the
16 kB catalogue every pricing section fetches. Streams (server-sent events, file downloads)
pass untouched: only complete in-memory bodies are compressed.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Container
from functools import lru_cache

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


@lru_cache(maxsize=64)  # browsers send a handful of distinct headers; bounded for the rest
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


async def compress_response(
    response: Response, accept_encoding: str, present: Container[str] | None = None
) -> Response:
    """Compresses `response` in place when it is worth it and the client can read it.

    `present`, when given, holds the lower-cased names of the response's headers (the caller
    has them already), which spares a scan of the headers per check."""
    body = response.response
    headers = response.headers
    if present is None:
        present = {key.lower() for key, _ in headers.items()}
    if (
        not isinstance(body, DataBody)
        or "content-encoding" in present
        or "content-range" in present
        or response.status_code in (204, 206, 304)
        or not COMPRESSIBLE.match(response.mimetype or "")
    ):
        return response
    if "vary" in present:
        response.vary.add("Accept-Encoding")
    else:
        headers.add("Vary", "Accept-Encoding")
    # A small body is sent as it is, whatever the client takes: no coding to choose.
    if len(body.data) < MIN_SIZE:
        return response
    encoding = choose_encoding(accept_encoding)
    if encoding is None:
        return response
    response.set_data(compress(body.data, encoding))
    headers["Content-Encoding"] = encoding
    etag = headers.get("ETag")
    if etag and not etag.startswith("W/"):
        # The same tag now names two byte sequences: weak, as nginx does (still matches the
        # routes' If-None-Match checks, which look for the quoted tag).
        headers["ETag"] = f"W/{etag}"
    return response
