"""A Sentry-compatible DSN (`https://PUBLIC_KEY@HOST[:PORT]/[PATH/]PROJECT_ID`), read by the
settings (a bad one stops the start with its key named) and by the error reports. The rules
are the Sentry SDK's own, so a DSN accepted here is one the SDK accepts: scheme http or https,
a host, a public key (the user part; a secret key after a colon is legacy and ignored), and a
whole number as the last path segment (the project)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit


class BadDsn(ValueError):
    pass


@dataclass(frozen=True)
class Dsn:
    scheme: str
    host: str
    port: int
    public_key: str
    path: str  # the prefix before the project id, without slashes at its ends ("" usually)
    project_id: str

    @property
    def envelope_url(self) -> str:
        """Where the SDK posts its envelopes."""
        prefix = f"/{self.path}" if self.path else ""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}{prefix}/api/{self.project_id}/envelope/"


def parse_dsn(value: str) -> Dsn:
    """The DSN's parts; `BadDsn` saying what is wrong (never echoing the key)."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError as exc:
        raise BadDsn("is not a URL") from exc
    if parts.scheme not in ("http", "https"):
        raise BadDsn("must start with https:// (or http://)")
    if not parts.hostname:
        raise BadDsn("has no host")
    if not parts.username:
        raise BadDsn("has no public key (https://KEY@HOST/PROJECT)")
    prefix, _, project = parts.path.rpartition("/")
    if not project.isascii() or not project.isdigit():
        raise BadDsn("must end with the project's number (https://KEY@HOST/PROJECT)")
    if parts.query or parts.fragment:
        raise BadDsn("must have no query or fragment")
    return Dsn(
        scheme=parts.scheme,
        host=parts.hostname,
        port=port if port is not None else (443 if parts.scheme == "https" else 80),
        public_key=parts.username,
        path=prefix.strip("/"),
        project_id=str(int(project)),
    )
