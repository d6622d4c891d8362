"""Typed settings: `AGENCY_*` environment variables over an optional TOML file over defaults.

Secrets are read only from here (environment or the TOML file), never from the web UI.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, ValidationInfo, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from agency.core.text import valid_email

CONFIG_FILE_ENV = "AGENCY_CONFIG"
_PHONE = re.compile(r"^\+?[0-9][0-9 ()./-]{4,30}[0-9]$")
DEFAULT_CONFIG_FILE = "agency.toml"


def _config_file() -> Path | None:
    """The TOML file to read: `$AGENCY_CONFIG`, else `./agency.toml` when it exists."""
    named = os.environ.get(CONFIG_FILE_ENV)
    if named:
        return Path(named)
    default = Path(DEFAULT_CONFIG_FILE)
    return default if default.is_file() else None


class Settings(BaseSettings):
    """Everything the program can be configured with. See config/agency.example.toml."""

    model_config = SettingsConfigDict(
        env_prefix="AGENCY_",
        extra="forbid",
        validate_default=True,
    )

    # Every field's description is its documentation: scripts/gen-config-doc writes
    # docs/configuration.md from them, and the test command fails when that file is stale.

    # Server
    host: str = Field(default="127.0.0.1", description="Address `agency serve` listens on.")
    port: int = Field(default=8000, ge=1, le=65535, description="Port `agency serve` listens on.")
    workers: int = Field(
        default=1, ge=1, le=64, description="Server processes `agency serve` forks (`--workers`)."
    )
    base_url: str = Field(
        default="",
        description="The site's public address, e.g. `https://www.example.com`: links in e-mails, "
        "canonical URLs, robots.txt and the sitemap are built from it, never from request "
        "headers; `https://` turns on Secure cookies and HSTS. Empty: "
        "`http://HOST:PORT`.",
    )
    data_dir: Path = Field(
        default=Path("data"),
        description="Where the SQLite database and the generated secret key are kept.",
    )
    database_url: str = Field(
        default="",
        description="`postgres://user:pass@host:5432/db` for PostgreSQL; empty: SQLite in "
        "`DATA_DIR/agency.db`. A SQLite URL may carry PRAGMAs as a query "
        "(`?synchronous=FULL`).",
    )
    secret_key: str = Field(
        default="",
        description="Signs session cookies. Empty: generated once into `DATA_DIR/secret_key` "
        "(0600). Set the same value on every machine when several serve the site.",
    )
    trusted_proxies: int = Field(
        default=0,
        ge=0,
        le=10,
        description="How many reverse proxies in front of the server append to "
        "`X-Forwarded-For`; the client's address is read that many hops from the right. 0: "
        "the header is ignored.",
    )
    log_level: Literal["debug", "info", "warning", "error"] = Field(
        default="info", description="The least important log records written."
    )
    log_format: Literal["text", "json"] = Field(
        default="text", description="`text`, or `json` (one JSON object per line)."
    )
    access_log: bool = Field(default=True, description="One log line per API request.")
    web_dir: Path | None = Field(
        default=None,
        description="Serve another build of the web UI (a `webui/dist` folder); empty: the "
        "bundled build.",
    )
    run_jobs: bool = Field(
        default=True,
        description="Run background jobs in the server processes; `false` when `agency worker` "
        "processes run them.",
    )
    jobs_concurrency: int = Field(
        default=16,
        ge=1,
        le=1024,
        description="Jobs one process runs at once, of the kinds without a limit of their own "
        "(a kind with one, such as speed tests, runs up to it besides).",
    )

    # E-mail. Without smtp_host, mail is kept in the outbox (`agency mail outbox`).
    mail_from: str = Field(
        default="agency <hello@agency.local>", description="The sender of every e-mail."
    )
    smtp_host: str = Field(
        default="",
        description="SMTP server. Empty: nothing is sent; mail waits in the outbox "
        "(`agency mail outbox --body`).",
    )
    smtp_port: int = Field(default=587, ge=1, le=65535, description="SMTP port.")
    smtp_username: str = Field(default="", description="SMTP log-in name (empty: no log-in).")
    smtp_password: str = Field(default="", description="SMTP password.")
    smtp_security: Literal["starttls", "tls", "none"] = Field(
        default="starttls",
        description="`starttls`, `tls` (implicit TLS, port 465) or `none`.",
    )
    smtp_timeout: float = Field(
        default=20.0, gt=0, description="Seconds one SMTP conversation may take."
    )
    # Where new leads are announced; empty = leads are only stored.
    agency_email: str = Field(
        default="",
        description="Where the agency's notices go (new leads, support requests). Empty: they "
        "are only stored.",
    )

    # Payments (Stripe). Without a secret key, checkout answers that payments are not set up.
    stripe_secret_key: str = Field(
        default="",
        description="Stripe secret key (server only). Empty: checkout answers 503 'Payments "
        "are not set up yet.'.",
    )
    stripe_webhook_secret: str = Field(
        default="",
        description="Signing secret of the webhook endpoint `/api/billing/webhook`.",
    )
    stripe_api_base: str = Field(
        default="",
        description="Another Stripe API address (the fake, for tests and demos); empty: Stripe's.",
    )

    # Speed test (module speedtest): which provider runs it, and how to reach it.
    speedtest_provider: Literal["psi", "lighthouse"] = Field(
        default="psi",
        description="`psi` (Google PageSpeed Insights v5) or `lighthouse` (local Lighthouse and "
        "Chromium).",
    )
    pagespeed_api_key: str = Field(
        default="",
        description="PageSpeed Insights API key (server only). Empty: keyless calls share a "
        "small quota.",
    )
    pagespeed_api_base: str = Field(
        default="https://pagespeedonline.googleapis.com",
        description="Another PageSpeed Insights address (the fake, for tests and benchmarks).",
    )
    pagespeed_timeout: float = Field(
        default=60.0,
        gt=0,
        le=600,
        description="Seconds one speed test may take, with either provider.",
    )
    lighthouse_path: str = Field(
        default="lighthouse",
        description="The lighthouse command (a name on `PATH` or a full path).",
    )
    lighthouse_chrome_path: str = Field(
        default="",
        description="Chrome or Chromium for local Lighthouse (`CHROME_PATH`). Empty: "
        "Lighthouse finds one.",
    )
    # Newsletter (Kit, formerly ConvertKit). Without a key and a form id, e-mails are leads only.
    kit_api_key: str = Field(
        default="",
        description="Kit (ConvertKit) API key (server only). Empty: e-mails are leads only.",
    )
    kit_api_version: Literal["v3", "v4"] = Field(
        default="v3",
        description="`v3` (the key in the body) or `v4` (the `X-Kit-Api-Key` header).",
    )
    kit_form_id: str = Field(
        default="",
        description="The Kit form the speed-test pages subscribe to (its number). Empty: no "
        "Kit call.",
    )
    kit_api_base: str = Field(
        default="",
        description="Another Kit address (the fake, for tests). Empty: the version's official "
        "address.",
    )
    speedtest_reuse_minutes: int = Field(
        default=60,
        ge=0,
        le=7 * 24 * 60,
        description="A speed test of the same domain and strategy within this many minutes "
        "answers at once from the last result (0: always test anew).",
    )
    speedtest_unsafe_allow_private_targets: bool = Field(
        default=False,
        description="UNSAFE, tests only: let the speed test and the analysis reach loopback and "
        "private addresses (and skip the DNS check). Off, the server refuses any target on its "
        "own machine or network.",
    )
    analysis_unsafe_fetch_overrides: dict[str, str] = Field(
        default_factory=dict,
        description="UNSAFE, tests only (accepted only with "
        "`speedtest_unsafe_allow_private_targets`): domains the analysis fetches from another "
        'base URL, e.g. `{"customer-site.com": "http://127.0.0.1:8123"}`, so a test can use a '
        "domain that passes the pages' strict rule.",
    )
    sites_monitor_interval_hours: int = Field(
        default=168,
        ge=1,
        le=24 * 366,
        description="Customers' live websites are speed-tested on a schedule, each this many "
        "hours after its last monitored test (168: weekly); the owner hears of a drop.",
    )

    # AI provider (net.ai): any OpenAI-compatible chat-completions endpoint, called by our
    # server only. Without a key, features that need it say 'AI is not configured'.
    ai_api_key: str = Field(
        default="",
        description="Key of the OpenAI-compatible AI provider (server only). Empty: analysis "
        "reports are written by rules and the article manager says 'AI is not configured'.",
    )
    ai_base_url: str = Field(
        default="https://api.openai.com/v1",
        description="Any OpenAI-compatible chat-completions endpoint (a European or "
        "self-hosted model).",
    )
    ai_model: str = Field(
        default="gpt-4o-mini",
        description="The model the analysis and the article manager ask (it must support JSON "
        "mode).",
    )
    ai_timeout: float = Field(
        default=60.0, gt=0, le=600, description="Seconds one AI request may take."
    )
    ai_max_retries: int = Field(
        default=2,
        ge=0,
        le=5,
        description="Retries after a rate limit, a timeout, a connection failure or a 5xx "
        "(never after a used-up quota).",
    )

    # Public site details shown on pages ({phone}, {email} and the scheduling URL of the specs).
    contact_phone: str = Field(
        default="+49 30 1234 5678",
        description="Phone number shown on the pages (`{phone}` of the specs).",
    )
    contact_email: str = Field(
        default="hello@agency.local",
        description="Contact e-mail shown on the pages (`{email}` of the specs).",
    )
    scheduling_url: str = Field(
        default="",
        description="Booking page framed on /sales-funnel after a click. Empty: e-mail instead.",
    )
    content_engine_plans: dict[str, str] = Field(
        default_factory=dict,
        description="The plan each content-engine route sells, e.g. "
        '`{"/ai-scale-startup3": "ai-scale-plan"}`; routes left out keep the content '
        "module's defaults, which also checks the keys.",
    )
    pages_dir: Path | None = Field(
        default=None,
        description="Folder with the Markdown of /faq, /about, /contact, /careers, /privacy, "
        "/terms and /cookies. Empty: the bundled `config/pages`.",
    )

    # How long data needed only for a while is kept, in days (docs/operations.md, "What is
    # kept, and for how long"); an hourly job deletes it after that, and `agency db prune` does
    # it at once.
    retention_jobs_done_days: int = Field(
        default=14, ge=0, le=36500, description="Finished background jobs, after they finished."
    )
    retention_jobs_failed_days: int = Field(
        default=30, ge=0, le=36500, description="Background jobs that failed for good."
    )
    retention_mail_sent_days: int = Field(
        default=30, ge=0, le=36500, description="Copies of sent e-mail, from sending."
    )
    retention_mail_failed_days: int = Field(
        default=30,
        ge=0,
        le=36500,
        description="E-mail never delivered (failed, or kept in the outbox without an SMTP "
        "server), from when it was written.",
    )
    retention_sessions_days: int = Field(
        default=0,
        ge=0,
        le=36500,
        description="Sessions, counted from their expiry (0: deleted at the first hourly run "
        "after it).",
    )
    retention_password_resets_days: int = Field(
        default=1,
        ge=0,
        le=36500,
        description="Password-reset links, counted from their use or expiry, whichever comes "
        "first.",
    )
    retention_rate_limits_days: int = Field(
        default=2,
        ge=1,
        le=36500,
        description="Rate-limit counters, counted from their last event (at least 1: the "
        "longest limit window is a day).",
    )
    retention_webhook_events_days: int = Field(
        default=180,
        ge=0,
        le=36500,
        description="Stripe webhook events, from their arrival (kept for replay and audit).",
    )
    retention_leads_days: int = Field(
        default=730,
        ge=1,
        le=36500,
        description="Leads (enquiries from the forms), from when they were sent: 730 days = 24 "
        "months; also the e-mail of speed tests and analyses.",
    )
    retention_ai_generations_days: int = Field(
        default=30,
        ge=1,
        le=36500,
        description="The article manager's AI generations (topic, ideas), after they finished; "
        "the drafts they wrote stay.",
    )
    retention_notifications_days: int = Field(
        default=180,
        ge=0,
        le=36500,
        description="Notifications already read, from when they were written (unread ones are "
        "kept).",
    )

    @field_validator("base_url")
    @classmethod
    def _strip_trailing_slash(cls, value: str) -> str:
        if value and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/")

    @field_validator("pagespeed_api_base", "kit_api_base", "ai_base_url")
    @classmethod
    def _check_api_base(cls, value: str, info: ValidationInfo) -> str:
        value = value.strip().rstrip("/")
        if not value and info.field_name == "kit_api_base":
            return value
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("must be an http(s) address such as https://api.example.com")
        return value

    @field_validator("ai_api_key", "ai_model")
    @classmethod
    def _strip(cls, value: str, info: ValidationInfo) -> str:
        value = value.strip()
        if info.field_name == "ai_model" and not value:
            raise ValueError("must name a model, e.g. gpt-4o-mini")
        return value

    @field_validator("analysis_unsafe_fetch_overrides")
    @classmethod
    def _check_fetch_overrides(cls, value: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        if value and not info.data.get("speedtest_unsafe_allow_private_targets"):
            raise ValueError("needs speedtest_unsafe_allow_private_targets = true (tests only)")
        checked: dict[str, str] = {}
        for domain, base in value.items():
            if not base.startswith(("http://", "https://")):
                raise ValueError(
                    f"{domain}: must be an http(s) address such as http://127.0.0.1:8123"
                )
            checked[domain.strip().lower()] = base.strip().rstrip("/")
        return checked

    @field_validator("kit_form_id")
    @classmethod
    def _check_form_id(cls, value: str) -> str:
        value = value.strip()
        if value and not value.isdigit():
            raise ValueError("must be the form's number, e.g. 1234567")
        return value

    @field_validator("contact_phone")
    @classmethod
    def _check_phone(cls, value: str) -> str:
        value = " ".join(value.split())
        if not _PHONE.match(value) or sum(c.isdigit() for c in value) < 6:
            raise ValueError("must be a phone number such as +49 30 1234 5678")
        return value

    @field_validator("contact_email", "agency_email")
    @classmethod
    def _check_email(cls, value: str, info: ValidationInfo) -> str:
        # The rule every address the program mails or shows goes through (core.text); checked
        # at start-up so a bad address fails here, not in each notification later.
        value = value.strip()
        if not value and info.field_name == "agency_email":
            return value
        if not valid_email(value):
            raise ValueError("must be an e-mail address such as hello@example.com")
        return value

    @field_validator("scheduling_url")
    @classmethod
    def _check_scheduling_url(cls, value: str) -> str:
        value = value.strip()
        if not value:
            return value
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname or parts.username:
            raise ValueError("must be an http(s) address such as https://calendly.com/you/30min")
        if any(c in value for c in "\"'<> \\"):
            raise ValueError("must not contain quotes, spaces, angle brackets or backslashes")
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        config_file = _config_file()
        if config_file is not None:
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=config_file))
        return tuple(sources)

    # Derived values -------------------------------------------------------------------

    @property
    def effective_database_url(self) -> str:
        """The configured database, or a SQLite file in the data directory."""
        if self.database_url:
            return self.database_url
        return f"sqlite://{(self.data_dir / 'agency.db').resolve()}"

    @property
    def public_url(self) -> str:
        """Where users reach the site, for links in e-mails (never taken from request headers)."""
        return self.base_url or f"http://{self.host}:{self.port}"

    @property
    def served_over_https(self) -> bool:
        return self.base_url.startswith("https://")

    def ensure_data_dir(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)

    def effective_secret_key(self) -> str:
        """The configured secret, else one generated once and kept in the data directory.

        Kept on disk so sessions survive restarts and every worker process signs alike.
        """
        if self.secret_key:
            return self.secret_key
        self.ensure_data_dir()
        key_file = self.data_dir / "secret_key"
        try:
            fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return key_file.read_text().strip()
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(48))
        return key_file.read_text().strip()


class SettingsError(Exception):
    """Settings could not be loaded; the message lists every bad key."""


# A check a module runs on the settings it owns: (settings key, message) for each problem.
SettingsCheck = Callable[[Settings], list[tuple[str, str]]]


def _report(problems: Iterable[tuple[str, str]]) -> str:
    lines = [f"  AGENCY_{key.upper()}: {message}" for key, message in problems]
    return "Invalid configuration:\n" + "\n".join(lines)


def load_settings(**overrides: Any) -> Settings:
    """Load settings, turning pydantic's report into one readable message."""
    try:
        return Settings(**overrides)
    except ValidationError as exc:
        problems = [
            (".".join(str(part) for part in error["loc"]) or "(settings)", error["msg"])
            for error in exc.errors()
        ]
        raise SettingsError(_report(problems)) from exc


def check_settings(settings: Settings, checks: Iterable[SettingsCheck]) -> None:
    """Run the modules' own checks (keys whose meaning only a module knows) and raise one
    SettingsError listing every problem, worded like a validator's: "Value error, ..."."""
    problems = [
        (key, f"Value error, {message}") for check in checks for key, message in check(settings)
    ]
    if problems:
        raise SettingsError(_report(problems))
