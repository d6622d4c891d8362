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

    # Server
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    workers: int = Field(default=1, ge=1, le=64)
    base_url: str = ""
    data_dir: Path = Path("data")
    database_url: str = ""
    secret_key: str = ""
    trusted_proxies: int = Field(default=0, ge=0, le=10)
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    log_format: Literal["text", "json"] = "text"
    access_log: bool = True
    web_dir: Path | None = None
    run_jobs: bool = True
    jobs_concurrency: int = Field(default=16, ge=1, le=1024)

    # E-mail. Without smtp_host, mail is kept in the outbox (`agency mail outbox`).
    mail_from: str = "agency <hello@agency.local>"
    smtp_host: str = ""
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_username: str = ""
    smtp_password: str = ""
    smtp_security: Literal["starttls", "tls", "none"] = "starttls"
    smtp_timeout: float = Field(default=20.0, gt=0)
    # Where new leads are announced; empty = leads are only stored.
    agency_email: str = ""

    # Payments (Stripe). Without a secret key, checkout answers that payments are not set up.
    stripe_secret_key: str = ""
    stripe_webhook_secret: str = ""
    stripe_api_base: str = ""

    # Speed test (module insights): which provider runs it, and how to reach it.
    speedtest_provider: Literal["psi", "lighthouse"] = "psi"
    pagespeed_api_key: str = ""  # optional: keyless calls share a small quota
    pagespeed_api_base: str = "https://pagespeedonline.googleapis.com"
    pagespeed_timeout: float = Field(default=60.0, gt=0, le=600)  # seconds, either provider
    lighthouse_path: str = "lighthouse"
    lighthouse_chrome_path: str = ""  # empty: Lighthouse finds Chrome/Chromium itself
    # Newsletter (Kit, formerly ConvertKit). Without a key and a form id, e-mails are leads only.
    kit_api_key: str = ""
    kit_api_version: Literal["v3", "v4"] = "v3"
    kit_form_id: str = ""
    kit_api_base: str = ""  # empty: the version's official address
    # A speed test of the same domain and strategy within this many minutes answers at once
    # from the last result (0: always test anew).
    speedtest_reuse_minutes: int = Field(default=60, ge=0, le=7 * 24 * 60)
    # UNSAFE, for tests only: let the speed test reach loopback and private addresses (and
    # skip the DNS check). Off, the server refuses any target on its own machine or network.
    speedtest_unsafe_allow_private_targets: bool = False
    # UNSAFE, for tests only (accepted only with speedtest_unsafe_allow_private_targets): the
    # analysis fetches these domains from another base URL, e.g. {"customer-site.com":
    # "http://127.0.0.1:8123"}, so a test can use a domain that passes the pages' strict rule.
    analysis_unsafe_fetch_overrides: dict[str, str] = Field(default_factory=dict)
    # Customers' live websites are speed-tested on a schedule, each this many hours after its
    # last monitored test (168: weekly); the owner hears of a drop (module sites).
    sites_monitor_interval_hours: int = Field(default=168, ge=1, le=24 * 366)

    # AI provider (core.ai): any OpenAI-compatible chat-completions endpoint, called by our
    # server only. Without a key, features that need it say 'AI is not configured'.
    ai_api_key: str = ""
    ai_base_url: str = "https://api.openai.com/v1"
    ai_model: str = "gpt-4o-mini"
    ai_timeout: float = Field(default=60.0, gt=0, le=600)  # seconds, one request
    ai_max_retries: int = Field(default=2, ge=0, le=5)  # retries of retryable failures

    # Public site details shown on pages ({phone}, {email} and the scheduling URL of the specs).
    contact_phone: str = "+49 30 1234 5678"
    contact_email: str = "hello@agency.local"
    # Booking page embedded (iframe, after a click) on /sales-funnel; empty = e-mail instead.
    scheduling_url: str = ""
    # Plan sold by each content-engine route (the route's price variant); routes left out keep
    # the content module's defaults, which also checks the keys (`agency.modules.content`).
    content_engine_plans: dict[str, str] = Field(default_factory=dict)
    # Markdown of /faq, /about, /contact, /careers, /privacy, /terms, /cookies; empty = bundled.
    pages_dir: Path | None = None

    # How long data needed only for a while is kept, in days (README "What is kept, and for how
    # long"); an hourly job deletes it after that, and `agency db prune` does it at once.
    retention_jobs_done_days: int = Field(default=14, ge=0, le=36500)
    retention_jobs_failed_days: int = Field(default=30, ge=0, le=36500)
    retention_mail_sent_days: int = Field(default=30, ge=0, le=36500)
    # E-mail never delivered: failed, or kept in the outbox without an SMTP server.
    retention_mail_failed_days: int = Field(default=30, ge=0, le=36500)
    # Counted from the session's expiry: 0 = deleted at the first run after it expired.
    retention_sessions_days: int = Field(default=0, ge=0, le=36500)
    # Counted from the link's use or expiry, whichever comes first.
    retention_password_resets_days: int = Field(default=1, ge=0, le=36500)
    # Counted from the counter's last event (the longest limit window is a day).
    retention_rate_limits_days: int = Field(default=2, ge=1, le=36500)
    # Payment provider events, kept longer for replay and audit.
    retention_webhook_events_days: int = Field(default=180, ge=0, le=36500)
    # Leads (enquiries from the forms), from when they were sent: 730 days = 24 months.
    retention_leads_days: int = Field(default=730, ge=1, le=36500)
    # The article manager's AI generations (topic, ideas), after they finished; drafts stay.
    retention_ai_generations_days: int = Field(default=30, ge=1, le=36500)
    # Notifications already read, from when they were written (unread ones are kept).
    retention_notifications_days: int = Field(default=180, ge=0, le=36500)

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
