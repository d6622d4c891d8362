"""The app factory: `create_app(settings)` builds the whole server from settings and the
module registry. No app exists at import time."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from quart import Quart
from quart_schema import Info, QuartSchema

from agency import __version__
from agency.core import db, error_reports, jobs, mail, retention, userdata
from agency.core.modules import HtmlFilter, JobHandler, Module, Periodic
from agency.core.paths import web_dir
from agency.core.settings import Settings, as_settings, check_settings
from agency.core.web import (
    JOBS_KEY,
    SETTINGS_KEY,
    SITE_KEY,
    core_blueprint,
    install_error_handlers,
    install_request_layer,
    pass_responses_through,
    unsubscribe,
)
from agency.core.web.openapi import AgencyOpenAPIProvider
from agency.core.web.prometheus import install_metrics
from agency.core.web.requests import request_class
from agency.core.web.routing import remember_matches
from agency.core.web.security import security_headers
from agency.core.web.site import SiteFiles, StaticSite
from agency.registry import MODULES
from agency.settings import Settings as ProgramSettings
from agency.settings import load_settings, mail_footer

log = logging.getLogger(__name__)

# Paths the static layer never answers: they belong to Quart.
SERVER_PATHS = ("/api/", "/api", "/openapi.json")
MAX_BODY_BYTES = 1024 * 1024
# A POST to a module's upload path (`Module.uploads`: the blog's cover image) may be larger.
MAX_UPLOAD_BODY_BYTES = 8 * 1024 * 1024
# On shutdown, running jobs get this long to finish before they are put back in the queue.
STOP_GRACE_SECONDS = 10.0


def create_app(settings: Settings | None = None, modules: Sequence[Module[Any]] = MODULES) -> Quart:
    # The program's settings (every module's keys); given ones must be of that class.
    settings = load_settings() if settings is None else as_settings(ProgramSettings, settings)
    check_settings(settings, [m.check_settings for m in modules if m.check_settings is not None])
    frame_origins = [
        o for m in modules if m.frame_origins is not None for o in m.frame_origins(settings)
    ]
    # One list for Quart's answers and the static site's files.
    common_headers = security_headers(https=settings.served_over_https, frame_origins=frame_origins)
    app = Quart("agency")
    # The hot paths are matched without werkzeug's per-call reference cycle.
    remember_matches(app)
    # A body that is not JSON is a 400, never a 500; upload paths take a larger body.
    uploads = [path for m in modules for path in m.uploads]
    app.request_class = request_class(uploads, MAX_UPLOAD_BODY_BYTES)
    app.config.update(
        SECRET_KEY=settings.effective_secret_key(),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        QUART_AUTH_COOKIE_SECURE=settings.served_over_https,
        QUART_AUTH_COOKIE_SAMESITE="Lax",
        QUART_SCHEMA_CONVERSION_PREFERENCE="pydantic",
    )
    app.extensions[SETTINGS_KEY] = settings
    # With a DSN: unhandled errors of requests and jobs are reported (the SDK loaded only then).
    error_reports.install(settings)
    QuartSchema(
        app,
        openapi_path="/openapi.json",
        swagger_ui_path=None,
        redoc_ui_path=None,
        scalar_ui_path=None,
        info=Info(title="agency API", version=__version__),
        openapi_provider_class=AgencyOpenAPIProvider,
    )
    pass_responses_through(app)
    install_error_handlers(app)
    install_request_layer(
        app,
        settings,
        # Mail providers' one-click unsubscribe posts a form, without our header (RFC 8058).
        csrf_exempt=[mail.UNSUBSCRIBE_PATH, *(path for m in modules for path in m.csrf_exempt)],
        csrf_uploads=uploads,
        static_headers=common_headers,
    )
    app.register_blueprint(core_blueprint)
    app.register_blueprint(unsubscribe.blueprint)
    for module in modules:
        if module.blueprint is not None:
            app.register_blueprint(module.blueprint)

    model_modules = [m.models for m in modules if m.models is not None]
    # Unsubscribe links (the secret key and the site's address) and the footer of every e-mail.
    mail.configure(settings, mail_footer(settings, modules))
    mailer = mail.Mailer(settings)
    handlers: dict[str, JobHandler] = {mail.JOB_KIND: mailer.deliver}
    handlers.update({k: h for m in modules for k, h in m.job_handlers.items()})
    for module in modules:
        if module.settings_job_handlers is not None:
            handlers.update(module.settings_job_handlers(settings))
    periodic = periodic_jobs(modules)
    handlers.update({p.name: _periodic_handler(p, settings) for p in periodic})
    runner = jobs.JobRunner(
        handlers,
        schedules={p.name: p.interval for p in periodic},
        is_outage=db.is_unavailable,
        options={
            kind: option
            for m in modules
            if m.job_options is not None
            for kind, option in m.job_options(settings).items()
        },
        concurrency=settings.jobs_concurrency,
    )
    userdata.install(
        {m.user_data.key or m.name: m.user_data for m in modules if m.user_data is not None}
    )
    app.extensions[JOBS_KEY] = runner

    @app.before_serving
    async def open_database() -> None:
        await db.init_db(settings.effective_database_url, model_modules)
        if settings.run_jobs:
            runner.start(role="serve")

    @app.after_serving
    async def close_database() -> None:
        await runner.stop(grace=STOP_GRACE_SECONDS)
        await db.close_db()

    files = SiteFiles(
        settings.web_dir or web_dir(),
        common_headers,
        _chain([m.html_filter(settings, app.extensions) for m in modules if m.html_filter]),
        server_pages=[pattern for m in modules for pattern in m.server_pages],
    )
    app.extensions[SITE_KEY] = files
    app.asgi_app = StaticSite(app.asgi_app, files, SERVER_PATHS)  # type: ignore[method-assign, assignment, arg-type]
    # With a metrics token: `/metrics`, and each request's route template, status and time.
    install_metrics(
        app,
        settings.metrics_token,
        settings.effective_metrics_dir,
        __version__,
        kinds=lambda: runner.handlers.keys(),
    )
    return app


def periodic_jobs(modules: Sequence[Module[Any]]) -> list[Periodic[Any]]:
    """Core's scheduled work (retention, with every module's hook) and the modules' own."""
    hooks = [m.retention for m in modules if m.retention is not None]
    return [retention.periodic(hooks), *(p for m in modules for p in m.periodic)]


def _periodic_handler(periodic: Periodic[Any], settings: Settings) -> JobHandler:
    async def handle(_payload: dict[str, object]) -> None:
        await periodic.run(settings)

    return handle


def _chain(filters: Sequence[HtmlFilter]) -> HtmlFilter | None:
    """One filter applying the modules' HTML filters in turn (None when no module has one)."""
    if not filters:
        return None
    if len(filters) == 1:
        return filters[0]

    def fill(relative: str, text: str) -> str:
        for html_filter in filters:
            text = html_filter(relative, text)
        return text

    return fill
