"""Security rules shared by the API and the static site: response headers, the CSRF guard and
the client address behind trusted proxies. Pure functions, so they are easy to test."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from typing import Protocol
from urllib.parse import urlsplit

CSRF_HEADER = "X-Agency-Request"
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Sec-Fetch-Site values a browser sends for our own pages (or a typed URL / bookmark).
SAME_SITE_FETCH = frozenset({"same-origin", "none"})

_CSP_DIRECTIVES = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https:",  # avatars and article images may live elsewhere
    "font-src 'self'",
    "connect-src 'self'",
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
]
CONTENT_SECURITY_POLICY = "; ".join(_CSP_DIRECTIVES)


def content_security_policy(frame_origins: Sequence[str] = ()) -> str:
    """The CSP; `frame_origins` (`scheme://host[:port]`, from the modules) may be framed,
    nothing else: third-party content comes in iframes, as no third-party script may run here."""
    if not frame_origins:
        return CONTENT_SECURITY_POLICY
    return "; ".join([*_CSP_DIRECTIVES, f"frame-src 'self' {' '.join(frame_origins)}"])


def security_headers(*, https: bool, frame_origins: Sequence[str] = ()) -> list[tuple[str, str]]:
    """Headers every response carries; HSTS only when the site is served over https."""
    headers = [
        ("Content-Security-Policy", content_security_policy(frame_origins)),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "strict-origin-when-cross-origin"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()"),
    ]
    if https:
        headers.append(("Strict-Transport-Security", "max-age=31536000; includeSubDomains"))
    return headers


class Headers(Protocol):
    """Anything with a (case-insensitive, for real requests) `get`, like werkzeug's Headers."""

    def get(self, key: str, /) -> str | None: ...


def csrf_failure(
    *,
    method: str,
    path: str,
    headers: Headers,
    host: str,
    has_body: bool,
    exempt: Iterable[str] = (),
    uploads: Iterable[str] = (),
) -> str | None:
    """Why a state-changing API request must be refused, or None when it may proceed.

    Our web UI only ever sends same-origin JSON with a custom header; a cross-site form or
    fetch can do neither without a CORS preflight, which we never grant. `exempt`: path
    prefixes without the guard (webhooks). `uploads`: the paths (`upload_path_matches`
    patterns) of file uploads, where a POST may carry `multipart/form-data` instead of JSON;
    every other rule (same site, the header) still holds there.
    """
    if method not in STATE_CHANGING or not path.startswith("/api/"):
        return None
    if any(path == prefix or path.startswith(prefix + "/") for prefix in exempt):
        return None
    fetch_site = headers.get("Sec-Fetch-Site")
    if fetch_site is not None and fetch_site not in SAME_SITE_FETCH:
        return "Cross-site requests are not allowed."
    origin = headers.get("Origin")
    if origin is not None and origin != "null" and urlsplit(origin).netloc != host:
        return "Cross-site requests are not allowed."
    if origin == "null":
        return "Cross-site requests are not allowed."
    if headers.get(CSRF_HEADER) is None:
        return f"Missing {CSRF_HEADER} header."
    content_type = (headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
    if not has_body or content_type == "application/json":
        return None
    if (
        method == "POST"
        and content_type == "multipart/form-data"
        and any(upload_path_matches(pattern, path) for pattern in uploads)
    ):
        return None
    return "Requests must be sent as JSON."


def upload_path_matches(pattern: str, path: str) -> bool:
    """Whether `path` is `pattern`, where a `*` segment stands for one path segment
    (`/api/admin/blog/articles/*/cover` matches `/api/admin/blog/articles/7/cover` and
    nothing below or above it)."""
    want, got = pattern.split("/"), path.split("/")
    return len(want) == len(got) and all(
        w == g or (w == "*" and g != "") for w, g in zip(want, got, strict=True)
    )


def client_address(remote_addr: str | None, forwarded_for: str | None, trusted_proxies: int) -> str:
    """The client's address: X-Forwarded-For is honoured only as far as our own proxies wrote it.

    With N trusted proxies the client is the N-th address from the right of the chain
    `X-Forwarded-For + remote address`; entries further left are client-controlled.
    """
    remote = (remote_addr or "").strip() or "unknown"
    if trusted_proxies <= 0 or not forwarded_for:
        return remote
    chain = [part.strip() for part in forwarded_for.split(",") if part.strip()] + [remote]
    index = max(len(chain) - 1 - trusted_proxies, 0)
    candidate = chain[index]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote
