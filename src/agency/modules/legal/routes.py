"""The legal notice's German address: `/impressum` leads to `/imprint` (a prerendered page)."""

from __future__ import annotations

from quart import Blueprint, Response
from quart_schema import hide

blueprint = Blueprint("legal", __name__)


@blueprint.get("/impressum")
@hide
async def impressum() -> Response:
    """The German name of the legal notice, for visitors who type it."""
    return Response("", status=301, headers={"Location": "/imprint"})
