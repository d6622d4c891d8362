"""The Quart side of the kernel: the one JSON error shape, the request layer in front of Quart
(request ids, access logs, security headers, the CSRF guard, compression: `request_layer`), and
the core routes (`/api/health`, `/docs`)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from pydantic import BaseModel
from quart import Blueprint, Quart, Response, current_app, jsonify, request
from quart.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from quart.typing import ResponseReturnValue
from quart.wrappers import BaseRequestWebsocket
from quart_schema import RequestSchemaValidationError, document_response, hide
from tortoise.exceptions import ValidationError as TortoiseValidationError
from werkzeug.exceptions import HTTPException

from agency import __version__
from agency.core import db, error_reports, health, metrics
from agency.core.errors import (
    GENERIC_MESSAGE,
    UNAVAILABLE_MESSAGE,
    UNAVAILABLE_RETRY_AFTER,
    AppError,
    ServiceUnavailable,
    ValidationFailed,
)
from agency.core.jobs import JobRunner
from agency.core.settings import S, Settings, as_settings
from agency.core.web.coalesce import Coalesced
from agency.core.web.request_layer import RequestLayer, is_api
from agency.core.web.site import SiteFiles

log = logging.getLogger("agency.request")
SETTINGS_KEY = "agency.settings"
# Where `create_app` keeps the app's job runner and its built site (`job_runner`, `site_files`).
JOBS_KEY = "agency.jobs"
SITE_KEY = "agency.site"


def job_runner(app: Quart | None = None) -> JobRunner:
    """The app's job runner (the current app's by default)."""
    runner = (current_app if app is None else app).extensions[JOBS_KEY]
    if not isinstance(runner, JobRunner):
        raise TypeError(f"app.extensions[{JOBS_KEY!r}] holds no job runner")
    return runner


def site_files(app: Quart | None = None) -> SiteFiles:
    """The app's built web UI (pages, templates, the sitemap's paths)."""
    files = (current_app if app is None else app).extensions[SITE_KEY]
    if not isinstance(files, SiteFiles):
        raise TypeError(f"app.extensions[{SITE_KEY!r}] holds no site files")
    return files


def app_settings(app: Quart | None = None) -> Settings:
    """The app's settings (the current app's by default), typed as the kernel's: `create_app`
    keeps them."""
    settings = (current_app if app is None else app).extensions[SETTINGS_KEY]
    if not isinstance(settings, Settings):
        raise TypeError(f"app.extensions[{SETTINGS_KEY!r}] holds no settings")
    return settings


def settings_of(cls: type[S], app: Quart | None = None) -> S:
    """The app's settings as a module's own class (`settings_of(BillingSettings)`): they are
    the program's composed class, an instance of every module's."""
    return as_settings(cls, app_settings(app))


def error_response(error: AppError) -> Response:
    response = jsonify(error.to_dict())
    response.status_code = error.status
    for name, value in error.headers.items():
        response.headers[name] = value
    return response


def _validation_fields(exc: RequestSchemaValidationError) -> dict[str, str]:
    fields: dict[str, str] = {}
    errors: Any = getattr(exc.validation_error, "errors", None)
    if callable(errors):
        for item in errors():
            key = ".".join(str(p) for p in item.get("loc", ())) or "body"
            message = str(item.get("msg", "Invalid value"))
            fields.setdefault(key, message.removeprefix("Value error, "))
    return fields


NOT_FOUND_FALLBACK = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">'
    '<meta name="robots" content="noindex"><title>Page not found</title></head>'
    '<body><h1>Page not found</h1><p><a href="/">Go to the home page</a></p></body></html>'
)


def not_found_page(path: str) -> Response:
    """The answer to a GET or HEAD of an unknown path outside the API: status 404 with the
    built "Page not found" page (webui/src/pages/NotFound.tsx, dist/404.html), not a redirect
    to the home page, which would hide broken links. A missing asset gets a plain 404."""
    if path.startswith("/assets/"):
        return Response("Not found.", status=404, content_type="text/plain; charset=utf-8")
    html = site_files().not_found_html or NOT_FOUND_FALLBACK
    response = Response(html, status=404, content_type="text/html; charset=utf-8")
    response.headers["Cache-Control"] = "no-cache"
    return response


def install_error_handlers(app: Quart) -> None:
    @app.errorhandler(AppError)
    async def handle_app_error(error: AppError) -> Response:
        return error_response(error)

    @app.errorhandler(RequestSchemaValidationError)
    async def handle_validation(error: RequestSchemaValidationError) -> Response:
        fields = _validation_fields(error)
        message = (
            next(iter(fields.values()), "The request is not valid.")
            if fields
            else ("The request body must be a JSON object.")
        )
        return error_response(ValidationFailed(message, fields=fields))

    @app.errorhandler(HTTPException)
    async def handle_http(error: HTTPException) -> ResponseReturnValue:
        status = error.code or 500
        if status == 404 and request.method in ("GET", "HEAD") and not is_api(request.path):
            return not_found_page(request.path)
        code = re.sub(r"[^a-z]+", "_", (error.name or "error").lower()).strip("_")
        failure = AppError(error.description or error.name or GENERIC_MESSAGE, code=code)
        failure.status = status
        if status == 404:
            failure.message = "Not found."
        elif status == 405:
            failure.message = "Method not allowed."
        elif status == 413:
            failure.message = "The request is too large."
        return error_response(failure)

    @app.errorhandler(Exception)
    async def handle_unexpected(error: Exception) -> Response:
        if db.is_unavailable(error):
            metrics.db_error("unavailable")
            # The database is down or out of reach: worth retrying, not a bug.
            log.warning("database unavailable: %s: %s", type(error).__name__, error)
            return error_response(
                ServiceUnavailable(
                    UNAVAILABLE_MESSAGE,
                    headers={"Retry-After": str(UNAVAILABLE_RETRY_AFTER)},
                )
            )
        if metrics.enabled() and metrics.is_database_error(error):
            metrics.db_error("error")
        if _unfit_value(error):
            # A value no column can hold got past the schemas (which should have refused it).
            log.warning("value refused by the database", exc_info=error)
            return error_response(ValidationFailed("The request is not valid."))
        log.exception("unhandled error", exc_info=error)
        if error_reports.enabled():
            rule = request.url_rule
            error_reports.capture(
                error,
                route=rule.rule if rule is not None else "unmatched",
                method=request.method,
            )
        failure = AppError(GENERIC_MESSAGE, code="internal_error")
        failure.status = 500
        return error_response(failure)


def _unfit_value(error: BaseException) -> bool:
    """True when `error` (or what it was raised from) says a value does not fit its column:
    Tortoise's length check, or PostgreSQL's data exceptions (NUL in text, out of range)."""
    current: BaseException | None = error
    for _ in range(5):
        if current is None:
            return False
        if isinstance(current, (TortoiseValidationError, asyncpg.exceptions.DataError)):
            return True
        current = current.__cause__
    return False


class LazyCookieSessions(SecureCookieSessionInterface):
    """Quart's cookie session, paid for only when a request brings the cookie.

    Nothing in the program uses Quart's `session` (accounts have their own session rows), yet
    the stock interface builds a signing serializer on every request and reads six config
    values on every response. Without a cookie the session is empty, and an empty session that
    nobody touched writes nothing: the same outcome, without the work."""

    async def open_session(
        self, app: Quart, request: BaseRequestWebsocket
    ) -> SecureCookieSession | None:
        if "Cookie" not in request.headers or self.get_cookie_name(app) not in request.cookies:
            return self.session_class() if app.secret_key else None
        return await super().open_session(app, request)

    async def save_session(
        self, app: Quart, session: SessionMixin, response: Response | Any | None
    ) -> None:
        if not session and not session.modified and not session.accessed:
            return
        await super().save_session(app, session, response)


def pass_responses_through(app: Quart) -> None:
    """quart-schema converts every route's return value (two model dumps, four config reads)
    so that a route may return a model; a finished Response, which the hot routes return,
    needs none of it. Call after QuartSchema has wrapped `make_response`."""
    converting = app.make_response

    async def make_response(result: Any) -> Any:
        if isinstance(result, Response):
            return result
        return await converting(result)

    app.make_response = make_response  # type: ignore[method-assign]


def install_request_layer(
    app: Quart,
    settings: Settings,
    csrf_exempt: Iterable[str],
    static_headers: Sequence[tuple[str, str]],
    csrf_uploads: Iterable[str] = (),
) -> None:
    """Puts `core.web.request_layer` in front of Quart, and Quart's cookie session behind a check.
    `static_headers`: what every response carries (`security.security_headers`)."""
    app.session_interface = LazyCookieSessions()
    app.asgi_app = RequestLayer(  # type: ignore[method-assign, assignment]
        app.asgi_app,  # type: ignore[arg-type]
        static_headers=static_headers,
        trusted_proxies=settings.trusted_proxies,
        access_log=settings.access_log,
        https_site=settings.served_over_https,
        csrf_exempt=list(csrf_exempt),
        csrf_uploads=list(csrf_uploads),
    )


class Health(BaseModel):
    status: str
    database: str
    version: str


core_blueprint = Blueprint("core", __name__)
# Health checks arriving together share one ping that started after each arrived.
_ping = Coalesced(lambda: db.ping())


# The two answers, serialised once: probes call this many times a second.
_HEALTH_BODIES = {
    ok: Health(
        status="ok" if ok else "degraded",
        database="ok" if ok else "unreachable",
        version=__version__,
    )
    .model_dump_json()
    .encode()
    for ok in (True, False)
}


@core_blueprint.get("/api/health")
@document_response(Health, 200)
@document_response(Health, 503)
async def get_health() -> Response:
    """Whether the server and its database answer, and which version runs."""
    database_ok = await _ping()
    return Response(
        _HEALTH_BODIES[database_ok],
        status=200 if database_ok else 503,
        content_type="application/json",
    )


class Live(BaseModel):
    status: str


class ReadyCheck(BaseModel):
    ok: bool
    state: str


class Ready(BaseModel):
    status: str
    checks: dict[str, ReadyCheck]


_LIVE_BODY = Live(status="ok").model_dump_json().encode()


@core_blueprint.get("/api/health/live")
@document_response(Live, 200)
async def get_health_live() -> Response:
    """Liveness: the process answers (nothing else is checked, not even the database): restart
    it when this fails."""
    return Response(_LIVE_BODY, content_type="application/json")


@core_blueprint.get("/api/health/ready")
@document_response(Ready, 200)
@document_response(Ready, 503)
async def get_health_ready() -> Response:
    """Readiness: the database answers, no migration is pending and a job runner is alive
    (this process's, or another's recent heartbeat); 503 naming each check's state when not:
    send no traffic here until it passes."""
    settings = app_settings()
    runner = current_app.extensions.get(JOBS_KEY)
    checks = await health.readiness(
        runner if isinstance(runner, JobRunner) else None, settings.run_jobs
    )
    ready = all(check.ok for check in checks)
    body = Ready(
        status="ok" if ready else "unavailable",
        checks={check.name: ReadyCheck(ok=check.ok, state=check.state) for check in checks},
    )
    response = Response(
        body.model_dump_json(), status=200 if ready else 503, content_type="application/json"
    )
    response.headers["Cache-Control"] = "no-store"
    return response


DOCS_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,
initial-scale=1"><title>agency API</title><link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/svg+xml" href="/favicon.svg"></head>
<body><div id="swagger-ui"></div><script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>"""


@core_blueprint.get("/docs")
@hide
async def get_docs() -> Response:
    """Interactive API documentation, with its assets served by us (no CDN)."""
    return Response(DOCS_PAGE, content_type="text/html; charset=utf-8")
