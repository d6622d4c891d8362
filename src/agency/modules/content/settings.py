"""The content module's settings keys: the public site's details shown on pages ({phone},
{email} and the scheduling URL of the specs), the content-engine plans and the Markdown pages.
The plan map's keys are checked against the specs by `service.check_settings`. It extends the
legal module's class: the pages' phone and e-mail are the seller's unless set apart here."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator

from agency.core.text import valid_email
from agency.modules.legal.api import LegalSettings

_PHONE = re.compile(r"^\+?[0-9][0-9 ()./-]{4,30}[0-9]$")


class ContentSettings(LegalSettings):
    """The kernel's keys, the legal module's and the content module's."""

    contact_phone: str = Field(
        default="",
        description="Phone number shown on the pages (`{phone}` of the specs). Empty: the "
        "seller's (`seller_phone`); set it for a separate public line.",
    )
    contact_email: str = Field(
        default="",
        description="Contact e-mail shown on the pages (`{email}` of the specs). Empty: the "
        "seller's (`seller_email`); set it for a separate public address.",
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
    urgency_claims: bool = Field(
        default=True,
        description="Show the urgency and scarcity claims of `[urgency]` in the claims file "
        "('8 slots left this week', 'only 5 spots', ...). `false` removes every one of them "
        "from every page; say only what is true.",
    )
    claims_file: Path | None = Field(
        default=None,
        description="A claims file (urgency texts, marketing figures, each testimonial's texts "
        "and each client logo, every one replaceable or switched off) over the bundled "
        "`config/claims.toml`, the specs' wording. Empty: the bundled one.",
    )
    ugc_sample_video: str = Field(
        default="",
        description="Sample video on /ugc-force: an MP4 or WebM file put in the data "
        "directory's `media/` folder, given by its URL path (`<data_dir>/media/ugc-sample.mp4` "
        "is `/media/ugc-sample.mp4`), loaded only when the visitor plays it. Empty: the page "
        "shows its phone frame instead. Needs `ugc_sample_poster`.",
    )
    ugc_sample_poster: str = Field(
        default="",
        description="The still image shown before the sample video plays: a JPEG, PNG, WebP "
        "or AVIF file in `<data_dir>/media/`, by its URL path (e.g. `/media/ugc-sample.webp`).",
    )
    ugc_sample_captions: str = Field(
        default="",
        description="Captions of the sample video: a WebVTT file in `<data_dir>/media/`, by "
        "its URL path (e.g. `/media/ugc-sample.vtt`). Empty: none (give them when the video "
        "speaks).",
    )
    pages_dir: Path | None = Field(
        default=None,
        description="Folder with the Markdown of /faq, /about, /contact, /careers, /privacy, "
        "/terms and /cookies. Empty: the bundled `config/pages`.",
    )

    @field_validator("contact_phone")
    @classmethod
    def _check_phone(cls, value: str) -> str:
        value = " ".join(value.split())
        if value and (not _PHONE.match(value) or sum(c.isdigit() for c in value) < 6):
            raise ValueError("must be a phone number such as +49 30 1234 5678")
        return value

    @field_validator("contact_email")
    @classmethod
    def _check_contact_email(cls, value: str) -> str:
        value = value.strip()
        if value and not valid_email(value):
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

    @field_validator("ugc_sample_video")
    @classmethod
    def _check_ugc_sample_video(cls, value: str) -> str:
        return media_path(value, VIDEO_TYPES)

    @field_validator("ugc_sample_poster")
    @classmethod
    def _check_ugc_sample_poster(cls, value: str) -> str:
        return media_path(value, POSTER_TYPES)

    @field_validator("ugc_sample_captions")
    @classmethod
    def _check_ugc_sample_captions(cls, value: str) -> str:
        return media_path(value, (".vtt",))

    @model_validator(mode="after")
    def _poster_with_video(self) -> ContentSettings:
        if self.ugc_sample_video and not self.ugc_sample_poster:
            raise ValueError(
                "ugc_sample_video needs ugc_sample_poster: the image shown before it plays"
            )
        return self


VIDEO_TYPES = (".mp4", ".webm")
POSTER_TYPES = (".jpg", ".jpeg", ".png", ".webp", ".avif")
_MEDIA_PATH = re.compile(r"^(/[A-Za-z0-9._~-]+)+$")


def media_path(value: str, suffixes: tuple[str, ...]) -> str:
    """A self-hosted file's URL path on this site ("" for none): `/dir/name.ext` of letters,
    digits and `._~-`, with one of `suffixes`; never another site's address."""
    value = value.strip()
    if not value:
        return value
    if not _MEDIA_PATH.match(value) or "/../" in value + "/" or "/./" in value + "/":
        raise ValueError("must be a path on this site such as /media/ugc-sample.mp4")
    if not value.lower().endswith(suffixes):
        raise ValueError(f"must end in {', '.join(suffixes)}")
    return value
