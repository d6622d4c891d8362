"""Website shapes."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel


class WebsiteOut(BaseModel):
    id: int
    domain: str
    page_speed: int | None
    status: str
    created_at: datetime


class WebsiteList(BaseModel):
    websites: list[WebsiteOut]
