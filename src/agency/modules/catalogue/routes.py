"""The public catalogue: the only source of prices for the web UI."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from quart import Blueprint, Response, current_app, request
from quart_schema import document_response, hide, validate_querystring

from agency.core.errors import NotFound
from agency.core.web import settings_of, site_files
from agency.core.web.compression import MIN_SIZE, choose_encoding, compress
from agency.core.web.site import SiteFiles
from agency.modules.catalogue import service
from agency.modules.catalogue.schemas import CatalogueOut, PurchasePageQuery
from agency.modules.tax import api as tax_api

blueprint = Blueprint("catalogue", __name__)


@blueprint.get("/api/catalogue")
@document_response(CatalogueOut, 200)  # the route writes the JSON itself (for its ETag)
async def get_catalogue() -> Response:
    """Every active service family and plan with prices in cents (ETag-cached)."""
    current = await _catalogue_json()
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


async def _catalogue_json() -> service.CatalogueJson:
    """The catalogue with the tax block of this app's settings."""
    return await service.catalogue_json(_tax_block())


TAX_BLOCK_KEY = "agency.catalogue.tax_block"


def _tax_block() -> dict[str, Any]:
    """The tax block of this app's settings, built once per app (settings do not change while
    it runs): building it (every EU rate, through a model) was a tenth of a catalogue request."""
    extensions = current_app.extensions
    block: dict[str, Any] | None = extensions.get(TAX_BLOCK_KEY)
    if block is None:
        block = extensions[TAX_BLOCK_KEY] = tax_api.tax_display(settings_of(tax_api.TaxSettings))
    return block


_encodings: dict[tuple[str, str], bytes] = {}


def _encoded(current: service.CatalogueJson, encoding: str) -> bytes:
    key = (current.etag, encoding)
    body = _encodings.get(key)
    if body is None:
        if len(_encodings) >= 8:  # older versions' bodies
            _encodings.clear()
        body = _encodings[key] = compress(current.body, encoding)
    return body


# ---- The purchase pages: server pages (Module.server_pages) ------------------------------


@blueprint.get(service.START_PAGE)
@hide
@validate_querystring(PurchasePageQuery)
async def start_page(query_args: PurchasePageQuery) -> Response:
    """/start: the page prerendered for the query's family and plan, the catalogue embedded."""
    return await _purchase_page(
        service.START_PAGE,
        lambda data: service.start_variant(data, query_args.type, query_args.plan),
        query_args,
    )


@blueprint.get(service.AI_START_PAGE)
@hide
@validate_querystring(PurchasePageQuery)
async def ai_start_page(query_args: PurchasePageQuery) -> Response:
    """/ai-start: the website packages, the query's plan preselected, the catalogue embedded."""
    return await _purchase_page(
        service.AI_START_PAGE,
        lambda data: service.ai_start_variant(data, query_args.plan),
        query_args,
    )


def _site() -> SiteFiles:
    return site_files()


def _html(text: str | bytes) -> Response:
    return Response(
        text, content_type="text/html; charset=utf-8", headers={"Cache-Control": "no-cache"}
    )


def _shell_without_template(pattern: str) -> Response | None:
    """A build without the purchase templates: the client shell, which renders the page and
    fetches the catalogue itself (None when the build has the templates)."""
    site = _site()
    if site.page_template(pattern) is not None:
        return None
    if site.spa is None:
        raise NotFound("The web UI is not built.")
    return _html(site.spa.variants["identity"])


async def _purchase_page(
    pattern: str, pick_variant: Callable[[CatalogueOut], str | None], query: PurchasePageQuery
) -> Response:
    """The purchase page `pattern` in the variant `pick_variant` names for the current
    catalogue, filled for this request (the client shell when the build has no templates)."""
    shell = _shell_without_template(pattern)
    if shell is not None:
        return shell
    current = await _catalogue_json()
    site = _site()
    canceled = query.canceled == "true"
    if not service.templates_current(site.template_data, current):
        # Rendered with other prices or texts than sold now (an admin changed the catalogue
        # after the build): the client shell renders the page from the embedded catalogue.
        if site.spa is None:
            raise NotFound("The web UI is not built.")
        client_shell = site.spa.variants["identity"].decode()
        return _html(service.purchase_page(client_shell, current.embeddable, canceled=canceled))
    variant = pick_variant(current.data)
    template = (site.page_template(variant) if variant else None) or site.page_template(pattern)
    if template is None:
        raise NotFound("The web UI is not built.")
    return _html(service.purchase_page(template, current.embeddable, canceled=canceled))
