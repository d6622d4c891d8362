"""What a module contributes to the program. Each module describes itself in its `module.py`;
`agency.registry` lists the modules, one line each."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import ModuleType
from typing import TYPE_CHECKING, Any, Generic

from agency.core.settings import S, SettingsCheck
from agency.core.userdata import UserData

if TYPE_CHECKING:
    from agency.core.mail import MailFooter  # mail imports jobs, which imports this file

JobHandler = Callable[[dict[str, Any]], Awaitable[None]]
# (path of a built HTML file relative to the build, its text) -> the text to serve.
HtmlFilter = Callable[[str, str], str]
# (settings, now) -> rows removed per kind ("auth.sessions": 3, ...): deletes what the module
# keeps only for a while, each kind after its configured time (see `agency.core.retention`).
RetentionHook = Callable[[S, datetime], Awaitable[dict[str, int]]]


@dataclass(frozen=True)
class Periodic(Generic[S]):
    """Work that runs every `interval`, once per period across every server process.

    name: the schedule's name, also the kind of the job each run is queued as (at most 64
        characters; prefix it with the module's name: "sites.monitor").
    interval: the time between runs (the first run is due at once on a new database).
    run: given the settings, does the work; it runs as a job of the database queue, so a
        failure is retried with back-off.
    """

    name: str
    interval: timedelta
    run: Callable[[S], Awaitable[object]]


@dataclass(frozen=True)
class JobOptions:
    """How the job runner runs one kind of job (kinds without options get the defaults).

    limit: at most this many jobs of the kind run at once in one process, in slots of their
        own (work that mostly waits on another server: a speed test); None: the kind shares the
        process's `jobs_concurrency` slots with every other kind without a limit.
    per_host: at most this many run at once on one machine, counted over every process there
        (work that uses the machine's CPU, such as a local browser: `os.cpu_count()`); the
        rest wait in the queue. None: no such limit.
    lease: how long a run may go without its worker's heartbeat before another worker takes it
        over (the runner renews it every third of it while the job runs, so only a dead
        worker's jobs expire). None: `agency.core.jobs.LEASE` (a minute).
    """

    limit: int | None = None
    per_host: int | None = None
    lease: timedelta | None = None

    def __post_init__(self) -> None:
        if self.limit is not None and self.limit < 1:
            raise ValueError("JobOptions.limit must be at least 1")
        if self.per_host is not None and self.per_host < 1:
            raise ValueError("JobOptions.per_host must be at least 1")
        if self.lease is not None and self.lease < timedelta(seconds=1):
            raise ValueError("JobOptions.lease must be at least a second")


@dataclass(frozen=True)
class Readiness:
    """One thing an operator configures, as `agency doctor` reports it.

    topic: what it is ("Seller details", "Payments (Stripe)").
    ready: configured well enough to use.
    required: production needs it (`agency doctor` fails while it is not ready); otherwise an
        optional feature, whose `detail` says what does not work without it.
    detail: what is configured, or what is missing and what stops working.
    next_step: what to set next (the `AGENCY_*` keys); empty when ready.
    """

    topic: str
    ready: bool
    required: bool
    detail: str
    next_step: str = ""


@dataclass(frozen=True)
class Module(Generic[S]):
    """A module's contributions, typed by its settings class `S` (the kernel's `Settings`, or
    the module's own subclass of it): every hook below gets the program's settings as an `S`.

    name: the module's name. Its commands (`cli.py`) are not here but in `agency.commands`,
        by dotted path, so that `agency --help` imports no module (and the server no CLI).
    settings: the class of the settings keys the module owns (`modules/<name>/settings.py`, a
        subclass of the kernel's `Settings`; it may extend a lower module's class or
        `agency.net.settings.AiSettings`); None: it owns none. `agency.settings` composes the
        program's one settings class from the kernel's and these.
    models: the module's Tortoise models module, imported statically so that the frozen
        binary and import-linter both see it.
    blueprint: a Quart blueprint (typed loosely so that core does not import Quart).
    job_handlers: background job kinds this module runs, by kind name.
    settings_job_handlers: given the settings, more job kinds it runs (handlers that need the
        settings: a provider's address and key, the public URL for links in e-mails).
    job_options: given the settings, how some of those kinds run (`JobOptions`: a limit per
        process, a limit per machine, a lease).
    csrf_exempt: API paths that accept requests without the CSRF guard (payment webhooks).
    uploads: API paths of file uploads (`*` for one path segment: "/api/x/*/file"), where a
        POST may send `multipart/form-data` instead of JSON; the rest of the CSRF guard (same
        site, the `X-Agency-Request` header) still applies.
    user_data: how to export and erase what this module holds about a user.
    prepare: runs in `agency serve` after the migrations, before the workers start (loads
        default data on a fresh install).
    check_settings: reports problems with the settings keys only this module understands, as
        (key, message) pairs; `create_app` and the CLI stop with them as with any bad key.
    html_filter: given the settings and the app's `extensions` (where the module may keep what
        it loads for its routes), returns a function that fills the built web UI's HTML pages at
        start-up; `create_app` chains the modules' filters in registry order.
    frame_origins: origins (`scheme://host[:port]`) the CSP lets pages frame.
    server_pages: web UI route patterns ("/blog", "/blog/:slug") whose HTML the module's
        blueprint answers per request instead of the static site: the static layer hands such a
        request to Quart with its path normalised (`agency.core.web.site.path_key`), and the route
        fills the built page, `SiteFiles.page_template(pattern)`, with the current data.
    retention: deletes what the module keeps only for a while (expired sessions, old webhook
        events); core runs every module's hook on a schedule and in `agency db prune`.
    periodic: work the module runs on a schedule (see `Periodic`).
    mail_footer: given the settings, what closes every e-mail the program sends (the seller's
        details); `create_app` and the command line hand it to `agency.core.mail.configure`.
        At most one module has one.
    readiness: given the settings, what an operator still has to configure for the module's
        features (`Readiness`), as `agency doctor` lists it.
    status: given the settings, what `agency status` shows of the module's running state (the
        last payment webhook): named facts, each JSON-able (None when there is none yet), read
        with the database open.
    """

    name: str
    settings: type[S] | None = None
    models: ModuleType | None = None
    blueprint: Any = None
    job_handlers: dict[str, JobHandler] = field(default_factory=dict)
    settings_job_handlers: Callable[[S], Mapping[str, JobHandler]] | None = None
    job_options: Callable[[S], Mapping[str, JobOptions]] | None = None
    csrf_exempt: tuple[str, ...] = ()
    uploads: tuple[str, ...] = ()
    user_data: UserData | None = None
    prepare: Callable[[], Awaitable[object]] | None = None
    check_settings: SettingsCheck[S] | None = None
    html_filter: Callable[[S, dict[str, Any]], HtmlFilter] | None = None
    frame_origins: Callable[[S], tuple[str, ...]] | None = None
    server_pages: tuple[str, ...] = ()
    retention: RetentionHook[S] | None = None
    periodic: tuple[Periodic[S], ...] = ()
    mail_footer: Callable[[S], MailFooter] | None = None
    readiness: Callable[[S], tuple[Readiness, ...]] | None = None
    status: Callable[[S], Awaitable[Mapping[str, Any]]] | None = None
