"""Typed settings: `AGENCY_*` environment variables over an optional TOML file over defaults.

Secrets are read only from here (environment or the TOML file), never from the web UI.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal, TypeVar, cast
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from agency.core.dsn import parse_dsn
from agency.core.text import valid_email

CONFIG_FILE_ENV = "AGENCY_CONFIG"
DEFAULT_CONFIG_FILE = "agency.toml"


def _config_file() -> Path | None:
    """The TOML file to read: `$AGENCY_CONFIG`, else `./agency.toml` when it exists."""
    named = os.environ.get(CONFIG_FILE_ENV)
    if named:
        return Path(named)
    default = Path(DEFAULT_CONFIG_FILE)
    return default if default.is_file() else None


class Settings(BaseSettings):
    """The kernel's settings keys. Each module that owns keys declares them in a subclass of its
    own (`agency/modules/<name>/settings.py`, named by its `Module.settings`), and the program's
    one settings class is composed from the kernel's and every module's (`compose_settings`,
    used by `agency.settings`). See config/agency.example.toml."""

    model_config = SettingsConfigDict(
        env_prefix="AGENCY_",
        extra="forbid",
        validate_default=True,
    )

    # Every field's description is its documentation: scripts/gen-config-doc writes
    # docs/configuration.md from them, and the test command fails when that file is stale.

    env: Literal["development", "production"] = Field(
        default="development",
        description="`production`: the modules refuse to start with what is only fit for a "
        "demo (the seller's demo details); `development` allows it and says so.",
    )

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

    # Metrics (docs/monitoring.md). A secret: whoever has it reads the figures.
    metrics_token: str = Field(
        default="",
        description="Secret Prometheus sends as `Authorization: Bearer <token>` to read "
        "`/metrics`. Empty: `/metrics` answers 404 and no process records metrics.",
    )
    metrics_dir: Path | None = Field(
        default=None,
        description="Where every agency process of this machine writes its metrics (servers' "
        "workers and `agency worker`; `/metrics` adds them up): one directory per machine, "
        "emptied at boot (e.g. systemd's `RuntimeDirectory=`). Empty: `DATA_DIR/metrics`.",
    )

    # Error reports (docs/monitoring.md, "Error reports"). The DSN is a secret of sorts: whoever
    # has it can file reports in the project.
    sentry_dsn: str = Field(
        default="",
        description="A Sentry-compatible DSN (`https://KEY@HOST/PROJECT`: Sentry, or a "
        "self-hosted GlitchTip): unhandled errors in requests and jobs are reported there, "
        "without personal data or secrets. Empty: nothing is sent and the SDK is not loaded.",
    )
    sentry_environment: str = Field(
        default="",
        description="The environment error reports are filed under. Empty: `AGENCY_ENV`'s "
        "value (`production`, `development`).",
    )

    # E-mail. Without smtp_host, mail is kept in the outbox (`agency mail outbox`).
    mail_from: str = Field(
        default="agency <hello@agency.local>",
        description="The sender of every e-mail. A bare address is sent with the brand "
        "(`brand_name`) as its display name.",
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
    # Where the operator's notices are sent; empty = they are only stored.
    agency_email: str = Field(
        default="",
        description="Where the agency's notices go (new leads, support requests). Empty: they "
        "are only stored.",
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
    retention_rate_limits_days: int = Field(
        default=2,
        ge=1,
        le=36500,
        description="Rate-limit counters, counted from their last event (at least 1: the "
        "longest limit window is a day).",
    )

    @field_validator("base_url")
    @classmethod
    def _strip_trailing_slash(cls, value: str) -> str:
        if value and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/")

    @field_validator("metrics_dir", mode="before")
    @classmethod
    def _empty_is_default(cls, value: object) -> object:
        # Empty (the example file's "", an empty env var) means the default: DATA_DIR/metrics.
        return None if value == "" else value

    @field_validator("agency_email")
    @classmethod
    def _check_email(cls, value: str) -> str:
        # The rule every address the program mails or shows goes through (core.text); checked
        # at start-up so a bad address fails here, not in each notification later.
        value = value.strip()
        if value and not valid_email(value):
            raise ValueError("must be an e-mail address such as hello@example.com")
        return value

    @field_validator("sentry_dsn")
    @classmethod
    def _check_dsn(cls, value: str) -> str:
        value = value.strip()
        if value:
            parse_dsn(value)  # BadDsn is a ValueError: reported with the key, not the value
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

    @property
    def effective_metrics_dir(self) -> Path:
        """The metrics directory: the configured one, else `DATA_DIR/metrics`."""
        return self.metrics_dir or self.data_dir / "metrics"

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


S = TypeVar("S", bound=Settings)

# A check a module runs on the settings it owns: (settings key, message) for each problem.
SettingsCheck = Callable[[S], list[tuple[str, str]]]


def http_base(value: str) -> str:
    """An API's base address, trimmed: an http(s) URL with a host, no trailing slash (for the
    modules' `*_api_base` keys)."""
    value = value.strip().rstrip("/")
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("must be an http(s) address such as https://api.example.com")
    return value


def compose_settings(
    classes: Iterable[type[Settings]], *, name: str = "Settings", module: str = __name__
) -> type[Settings]:
    """The one settings class of a program: the kernel's class and the given subclasses (the
    modules' classes) joined by multiple inheritance, so that it holds every key once, runs
    every validator, and is an instance of each class given. A class that another one given
    extends adds nothing of its own and is left out (its keys come with the subclass)."""
    given = list(dict.fromkeys(classes))
    for cls in given:
        if not issubclass(cls, Settings):
            raise TypeError(f"{cls.__qualname__} does not extend agency.core.settings.Settings")
    leaves = [c for c in given if not any(o is not c and issubclass(o, c) for o in given)]
    leaves = [c for c in leaves if c is not Settings]
    if not leaves:
        return Settings
    doc = "Every settings key of the program: the kernel's and " + ", ".join(
        c.__qualname__ for c in leaves
    )
    composed = type(name, (*reversed(leaves),), {"__doc__": doc, "__module__": module})
    return cast("type[Settings]", composed)


def as_settings(cls: type[S], settings: Settings) -> S:
    """`settings` as the class `cls` (a module's own): the program's composed settings are an
    instance of every module's class; anything else is a programming error."""
    if not isinstance(settings, cls):
        raise TypeError(
            f"the settings are a {type(settings).__qualname__}, not a {cls.__qualname__}: load "
            "them with agency.settings.load_settings (every module's keys)"
        )
    return settings


def _report(problems: Iterable[tuple[str, str]]) -> str:
    lines = [f"  AGENCY_{key.upper()}: {message}" for key, message in problems]
    return "Invalid configuration:\n" + "\n".join(lines)


def load_settings_as(cls: type[S], **overrides: Any) -> S:
    """Load settings of the class `cls` (the program's composed one: `agency.settings`), turning
    pydantic's report into one readable message."""
    try:
        return cls(**overrides)
    except ValidationError as exc:
        problems = [
            (".".join(str(part) for part in error["loc"]) or "(settings)", error["msg"])
            for error in exc.errors()
        ]
        raise SettingsError(_report(problems)) from exc


def check_settings(settings: Settings, checks: Iterable[SettingsCheck[Any]]) -> None:
    """Run the modules' own checks (keys whose meaning only a module knows) and raise one
    SettingsError listing every problem, worded like a validator's: "Value error, ..."."""
    problems = [
        (key, f"Value error, {message}") for check in checks for key, message in check(settings)
    ]
    if problems:
        raise SettingsError(_report(problems))
