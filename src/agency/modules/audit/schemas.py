"""The audit log's data handed to other modules and its API shapes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, Field, field_validator

from agency.core.sql import INT_ID_MAX
from agency.core.text import EMAIL_MAX, Line, QueryArgs

LIMIT_DEFAULT = 50
LIMIT_MAX = 200
# What `actor` means when it is these words: the command line's entries (no admin).
COMMAND_LINE = "command line"

MSG_SINCE = "'since' must be a date such as 2026-11-01."
MSG_UNTIL = "'until' must be a date such as 2026-11-30."
MSG_LIMIT = f"'limit' must be a whole number from 1 to {LIMIT_MAX}."
MSG_BEFORE_ID = "'before_id' must be the number of an entry (next_before_id of the last page)."


@dataclass(frozen=True)
class Actor:
    """Who acted: a signed-in admin (id and e-mail) or the command line (`Actor.cli()`)."""

    user_id: int | None
    email: str | None

    @staticmethod
    def cli() -> Actor:
        return Actor(user_id=None, email=None)


def parse_day(value: object, message: str) -> object:
    """A query's day: `YYYY-MM-DD` (a `date` as it is); anything else, ValueError(message).
    Only the ten-character form: `2026-11-1`, `20261101` or a time of day are refused."""
    if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
        return value
    if not isinstance(value, str) or len(value) != 10 or value[4] != "-" or value[7] != "-":
        raise ValueError(message)
    digits = value[:4] + value[5:7] + value[8:]
    if not digits.isascii() or not digits.isdigit():
        raise ValueError(message)
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise ValueError(message) from exc


def parse_count(value: object, message: str, low: int, high: int) -> object:
    """A whole number from `low` to `high` written in plain digits; ValueError(message) else
    (None stays None)."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(message)
    if isinstance(value, str):
        text = value.strip()
        if not text.isascii() or not text.isdigit() or len(text) > 12:
            raise ValueError(message)
        value = int(text)
    if not isinstance(value, int) or not low <= value <= high:
        raise ValueError(message)
    return value


class AuditQuery(QueryArgs):
    """The audit page's filters (all optional) and its keyset paging."""

    action: Line | None = Field(
        default=None, max_length=64, description="Only this action (a key of `actions`)."
    )
    actor: Line | None = Field(
        default=None,
        max_length=EMAIL_MAX,
        description="Part of the admin's e-mail (any case); the words `command line` select "
        "what the `agency` command did.",
    )
    target_type: Line | None = Field(
        default=None,
        max_length=32,
        description="Only entries about this kind of thing: site, "
        "support_request, article, user, withdrawal, plan.",
    )
    target_id: Line | None = Field(
        default=None, max_length=64, description="Only entries about this one (with target_type)."
    )
    since: date | None = Field(default=None, description="From this UTC day on: 2026-11-01.")
    until: date | None = Field(
        default=None, description="Up to and including this UTC day: 2026-11-30."
    )
    before_id: int | None = Field(
        default=None,
        description="The next page: entries older than this one (`next_before_id`).",
    )
    limit: int = Field(
        default=LIMIT_DEFAULT, description=f"Entries per page, 1 to {LIMIT_MAX} (default 50)."
    )

    @field_validator("since", mode="before")
    @classmethod
    def _since(cls, value: object) -> object:
        return parse_day(value, MSG_SINCE)

    @field_validator("until", mode="before")
    @classmethod
    def _until(cls, value: object) -> object:
        return parse_day(value, MSG_UNTIL)

    @field_validator("limit", mode="before")
    @classmethod
    def _limit(cls, value: object) -> object:
        return LIMIT_DEFAULT if value is None else parse_count(value, MSG_LIMIT, 1, LIMIT_MAX)

    @field_validator("before_id", mode="before")
    @classmethod
    def _before_id(cls, value: object) -> object:
        return parse_count(value, MSG_BEFORE_ID, 1, INT_ID_MAX)

    def to_filter(self) -> AuditFilter:
        return AuditFilter(
            action=self.action,
            actor=self.actor,
            target_type=self.target_type,
            target_id=self.target_id,
            since=self.since,
            until=self.until,
            before_id=self.before_id,
            limit=self.limit,
        )


@dataclass(frozen=True)
class AuditFilter:
    """What `list_entries` reads: the API's query, or the command's options."""

    action: str | None = None
    actor: str | None = None
    target_type: str | None = None
    target_id: str | None = None
    since: date | None = None
    until: date | None = None
    before_id: int | None = None
    limit: int = LIMIT_DEFAULT


class AuditEntryOut(BaseModel):
    """One admin action."""

    id: int
    at: datetime = Field(description="When it was recorded (UTC).")
    actor_id: int | None = Field(description="The admin's user id; null: the command line.")
    actor_email: str | None = Field(description="The admin's e-mail when they acted.")
    actor_label: str = Field(description="The admin's e-mail, or `command line`.")
    action: str
    action_label: str
    target_type: str
    target_id: str
    target_label: str
    before: Any = Field(description="The changed fields before (null: nothing before).")
    after: Any = Field(description="The changed fields after (null: nothing after).")


class ActionOut(BaseModel):
    key: str
    label: str


class AuditPage(BaseModel):
    """A page of the audit log, newest first."""

    entries: list[AuditEntryOut]
    next_before_id: int | None = Field(
        description="Pass as `before_id` for the next (older) page; null: this is the last."
    )
    actions: list[ActionOut] = Field(description="Every action the log knows, for the filter.")


@dataclass(frozen=True)
class Change:
    """One field of an entry, before and after (None: absent on that side)."""

    field: str
    before: Any
    after: Any
