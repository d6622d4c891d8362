"""The public catalogue: the only source of prices for the web UI."""

from __future__ import annotations

from quart import Blueprint, Response, request
from quart_schema import document_response

from agency.core.compression import MIN_SIZE, choose_encoding, compress
from agency.modules.catalogue import service
from agency.modules.catalogue.schemas import CatalogueOut

blueprint = Blueprint("catalogue", __name__)


@blueprint.get("/api/catalogue")
@document_response(CatalogueOut, 200)  # the route writes the JSON itself (for its ETag)
async def get_catalogue() -> Response:
    """Every active service family and plan with prices in cents (ETag-cached)."""
    current = await service.catalogue_json()
    headers = {"ETag": current.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    if current.etag in request.headers.get("If-None-Match", ""):
        return Response(status=304, headers=headers)
    encoding = choose_encoding(request.headers.get("Accept-Encoding", ""))
    if encoding is None or len(current.body) < MIN_SIZE:
        return Response(current.body, content_type="application/json", headers=headers)
    # Compressed once per catalogue version and coding, not per request; the tag is weak, as
    # the core's compression makes it for a compressed body.
    headers["Content-Encoding"] = encoding
    headers["ETag"] = "W/" + current.etag
    return Response(_encoded(current, encoding), content_type="application/json", headers=headers)


_encodings: dict[tuple[str, str], bytes] = {}


def _encoded(current: service.CatalogueJson, encoding: str) -> bytes:
    key = (current.etag, encoding)
    body = _encodings.get(key)
    if body is None:
        if len(_encodings) >= 8:  # older versions' bodies
            _encodings.clear()
        body = _encodings[key] = compress(current.body, encoding)
    return body
