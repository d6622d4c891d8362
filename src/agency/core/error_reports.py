"""Error reports to a Sentry-compatible service (Sentry, or a self-hosted GlitchTip), when
`AGENCY_SENTRY_DSN` is set: unhandled errors in requests and jobs, with the request id, the
route template, the method or the job's kind, and nothing personal or secret.

The SDK is imported only when a DSN is set (`install`): a site without one never loads it, and
`agency --help` or `agency serve` start no slower. It is set up to send as little as it can:
no default integrations (they would add log records as breadcrumbs, the request's headers and
body, the installed packages), no local variables, no traces or profiles, no sessions, no
client reports, no breadcrumbs. What it still builds passes `scrub_event` (`before_send`),
which keeps an allowlist of the event's parts and removes e-mail addresses, credentials in
URLs, `password=...` pairs and long tokens from every text left (the exception's message
above all: `ValueError(f"no user {email}")`).

Reported: an error a request did not handle (a 500; a database outage's 503 is not a bug and
is not reported), and a job's last failed attempt (an attempt that will be retried is not: a
mail server's hiccup that the retry overcomes is no bug either; a `PermanentFailure` is an
outcome a handler chose, and an outage of the database is not reported).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

from agency import __version__
from agency.core.logging import request_id_var
from agency.core.settings import Settings

log = logging.getLogger(__name__)

# The SDK, once `install` has set it up (None: reports are off, the SDK not even imported).
_sdk: ModuleType | None = None
FLUSH_SECONDS: Final = 2.0

# What is replaced in every text an event carries.
EMAIL_MARK: Final = "[email]"
SECRET_MARK: Final = "[redacted]"
TOKEN_MARK: Final = "[token]"
_EMAIL = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
# user:password@ (or a bare user@) in a URL: scheme://...@
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^\s/@:]+(?::[^/@\n]{0,256})?@")
_SECRET_PAIR = re.compile(
    r"(?i)\b(password|passwd|pwd|secret|token|api[_-]?key|apikey|authorization|cookie|session|"
    r"dsn|key)(\s*[=:]\s*)(\"[^\"]*\"|'[^']*'|[^\s,;&'\"]+)"
)
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[^\s,;'\"]+")
# Long runs of letters, digits and token punctuation holding both a letter and a digit: API
# keys, session ids, signed values, hex digests. (A path's segments, split at `/`, and words
# without digits are left alone.)
_TOKEN = re.compile(r"[A-Za-z0-9_\-+=]{24,}")
_DIGIT = re.compile(r"[0-9]")
_LETTER = re.compile(r"[A-Za-z]")
# Texts longer than this are cut before they are scrubbed (Sentry cuts them shorter anyway).
MAX_TEXT: Final = 8192
# Values the scrubber leaves as they are: ids the SDK makes (hex, token-like but not secret).
_IDS: Final = frozenset({"event_id", "timestamp", "contexts", "sdk", "release", "environment"})

# The event's parts kept (anything else the SDK or a future version adds is dropped).
_KEPT_KEYS: Final = frozenset(
    {
        "event_id",
        "timestamp",
        "platform",
        "level",
        "logger",
        "transaction",
        "release",
        "environment",
        "dist",
        "exception",
        "threads",
        "message",
        "logentry",
        "tags",
        "contexts",
        "fingerprint",
        "sdk",
        "type",
    }
)
_KEPT_CONTEXTS: Final = frozenset({"runtime", "trace", "os"})
_KEPT_TRACE: Final = frozenset({"trace_id", "span_id", "parent_span_id", "op", "status"})
# Frame fields kept: where the code is, never its variables.
_KEPT_FRAME: Final = frozenset(
    {
        "filename",
        "abs_path",
        "module",
        "function",
        "lineno",
        "colno",
        "in_app",
        "context_line",
        "pre_context",
        "post_context",
    }
)


def _token(match: re.Match[str]) -> str:
    run = match.group()
    return TOKEN_MARK if _DIGIT.search(run) and _LETTER.search(run) else run


def scrub_text(text: str) -> str:
    """`text` without e-mail addresses, credentials in URLs, secret `name=value` pairs and
    long tokens."""
    text = text[:MAX_TEXT]
    text = _URL_CREDENTIALS.sub(r"\1" + SECRET_MARK + "@", text)
    text = _EMAIL.sub(EMAIL_MARK, text)
    text = _BEARER.sub(lambda m: f"{m.group(1)} {SECRET_MARK}", text)
    text = _SECRET_PAIR.sub(lambda m: f"{m.group(1)}{m.group(2)}{SECRET_MARK}", text)
    return _TOKEN.sub(_token, text)


def _scrub(value: Any, depth: int = 0) -> Any:
    """Every string in `value` (nested lists and mappings) scrubbed; mapping keys too."""
    if depth > 20:
        return None
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, Mapping):
        return {scrub_text(str(k)): _scrub(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_scrub(v, depth + 1) for v in value]
    return value


def _frames(stacktrace: Any) -> Any:
    if not isinstance(stacktrace, Mapping):
        return None
    frames = stacktrace.get("frames")
    if not isinstance(frames, list):
        return None
    return {
        "frames": [
            {k: v for k, v in frame.items() if k in _KEPT_FRAME}
            for frame in frames
            if isinstance(frame, Mapping)
        ]
    }


def _exceptions(exception: Any) -> Any:
    if not isinstance(exception, Mapping) or not isinstance(exception.get("values"), list):
        return None
    values = []
    for item in exception["values"]:
        if not isinstance(item, Mapping):
            continue
        kept = {k: item[k] for k in ("type", "module", "value", "mechanism") if k in item}
        stacktrace = _frames(item.get("stacktrace"))
        if stacktrace is not None:
            kept["stacktrace"] = stacktrace
        values.append(kept)
    return {"values": values}


def scrub_event(event: Any, _hint: Any = None) -> Any:
    """The `before_send` hook: the event with only its allowed parts, every text scrubbed.
    Gone for good: the request (cookies, headers, query string, body), the user, the server's
    name, breadcrumbs, `extra` (the SDK puts `sys.argv` there), the installed modules, local
    variables."""
    if not isinstance(event, Mapping):
        return None
    kept: dict[str, Any] = {k: v for k, v in event.items() if k in _KEPT_KEYS}
    if "exception" in kept:
        kept["exception"] = _exceptions(kept["exception"])
    if "threads" in kept:
        kept["threads"] = _exceptions(kept["threads"])
    contexts = kept.get("contexts")
    if isinstance(contexts, Mapping):
        kept["contexts"] = {k: v for k, v in contexts.items() if k in _KEPT_CONTEXTS}
        trace = kept["contexts"].get("trace")
        if isinstance(trace, Mapping):
            kept["contexts"]["trace"] = {k: v for k, v in trace.items() if k in _KEPT_TRACE}
    elif "contexts" in kept:
        del kept["contexts"]
    scrubbed: dict[str, Any] = {
        key: value if key in _IDS else _scrub(value) for key, value in kept.items()
    }
    tags = kept.get("tags")
    if isinstance(tags, Mapping) and isinstance(tags.get("request_id"), str):
        # Our own id (32 hex digits, or the proxy's when it matched REQUEST_ID): kept as is.
        scrubbed["tags"]["request_id"] = tags["request_id"]
    return scrubbed


def _no_breadcrumb(_crumb: Any, _hint: Any) -> None:
    return None


def install(settings: Settings) -> bool:
    """Set the SDK up when a DSN is configured (in every server process and `agency worker`);
    returns whether reports are on. Without a DSN the SDK is not imported."""
    global _sdk
    if not settings.sentry_dsn:
        uninstall()  # an earlier app's DSN (tests) does not carry over
        return False
    import sentry_sdk
    from sentry_sdk.integrations.atexit import AtexitIntegration
    from sentry_sdk.integrations.dedupe import DedupeIntegration

    sentry_sdk.init(
        dsn=settings.sentry_dsn,
        environment=settings.sentry_environment or settings.env,
        release=f"agency@{__version__}",
        # sentry-sdk 2.75's successor of `send_default_pii=False` (deprecated there), stricter
        # still: no user, no cookies, headers, query strings or bodies, no frame variables.
        data_collection={
            "user_info": False,
            "cookies": {"mode": "off"},
            "http_headers": {"request": {"mode": "off"}},
            "http_bodies": [],
            "url_query_params": {"mode": "off"},
            "database_query_data": False,
            "queues": False,
            "stack_frame_variables": False,
            "gen_ai": {"inputs": False, "outputs": False},
            "graphql": {"document": False, "variables": False},
        },
        max_request_body_size="never",
        max_breadcrumbs=0,
        before_breadcrumb=_no_breadcrumb,
        before_send=scrub_event,
        # Only these two: sending what is queued at exit (without printing), and one report
        # per error object. None of the defaults (logging, stdlib, threading, modules, argv).
        default_integrations=False,
        auto_enabling_integrations=False,
        integrations=[
            AtexitIntegration(callback=lambda _pending, _timeout: None),
            DedupeIntegration(),
        ],
        traces_sample_rate=None,
        profiles_sample_rate=None,
        auto_session_tracking=False,
        send_client_reports=False,
        attach_stacktrace=False,
        server_name="",
    )
    _sdk = sentry_sdk
    log.info("error reports go to %s", _where(settings.sentry_dsn))
    return True


def _where(dsn: str) -> str:
    """The DSN without its key, for the log."""
    parts = urlsplit(dsn)
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def enabled() -> bool:
    return _sdk is not None


def capture(error: BaseException, **tags: str) -> None:
    """Report `error` with `tags` (and the request id of the request being served, if any).
    Never raises: a report that cannot be sent must not change the answer or the job."""
    sdk = _sdk
    if sdk is None:
        return
    try:
        with sdk.new_scope() as scope:
            request_id = request_id_var.get()
            if request_id != "-":
                scope.set_tag("request_id", request_id)
            for name, value in tags.items():
                scope.set_tag(name, value)
            sdk.capture_exception(error)
    except Exception as failure:  # the SDK's own trouble: say so, go on
        log.warning("error report not sent: %s", type(failure).__name__)


def flush(timeout: float = FLUSH_SECONDS) -> None:
    """Send what is queued (tests; a process about to exit)."""
    if _sdk is not None:
        _sdk.flush(timeout=timeout)


def uninstall() -> None:
    """Stop reporting (tests switch the DSN between apps)."""
    global _sdk
    if _sdk is not None:
        _sdk.get_client().close(timeout=FLUSH_SECONDS)
        _sdk.init(dsn=None, default_integrations=False)
    _sdk = None
