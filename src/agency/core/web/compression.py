"""Compression of the responses Quart builds (the API's JSON, server-rendered pages).

The built web UI is served precompressed by `core.web.site`; this covers the rest, such as the
16 kB catalogue every pricing section fetches. `core.web.request_layer` applies it to complete
bodies; streams (server-sent events, file downloads) pass untouched.
"""

from __future__ import annotations

import gzip
import re
from functools import lru_cache

import brotli

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
