"""The public catalogue: the only source of prices for the web UI."""

from __future__ import annotations

import hashlib

from quart import Blueprint, Response, request
from quart_schema import document_response

from agency.modules.catalogue import service
from agency.modules.catalogue.schemas import CatalogueOut

blueprint = Blueprint("catalogue", __name__)


@blueprint.get("/api/catalogue")
@document_response(CatalogueOut, 200)  # the route writes the JSON itself (for its ETag)
async def get_catalogue() -> Response:
    """Every active service family and plan with prices in cents (ETag-cached)."""
    body = (await service.catalogue()).model_dump_json()
    etag = '"' + hashlib.blake2s(body.encode(), digest_size=12).hexdigest() + '"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if etag in request.headers.get("If-None-Match", ""):
        return Response(status=304, headers=headers)
    return Response(body, content_type="application/json", headers=headers)
