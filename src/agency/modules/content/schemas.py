"""What the content module's routes answer."""

from __future__ import annotations

from pydantic import BaseModel


class ContentPageOut(BaseModel):
    name: str
    title: str
    html: str
