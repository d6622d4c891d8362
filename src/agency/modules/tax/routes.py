"""The public tax endpoints: how prices are shown, and a buyer's VAT ID checked with VIES."""

from __future__ import annotations

from quart import Blueprint, request
from quart_schema import validate_request, validate_response

from agency.core.web import settings_of
from agency.core.web.request_layer import current_client_ip
from agency.modules.tax.schemas import TaxDisplay, VatIdIn, VatIdOut
from agency.modules.tax.service import display, vatids
from agency.modules.tax.settings import TaxSettings

blueprint = Blueprint("tax", __name__)


@blueprint.get("/api/tax")
@validate_response(TaxDisplay, 200)
async def get_tax() -> TaxDisplay:
    """How prices are shown (the same block as the catalogue's `tax`): VAT mode, gross or net
    prices, the agency's country and rate, the One-Stop-Shop, the default buyer type, the
    locale and every EU standard rate (basis points)."""
    return display.tax_display(settings_of(TaxSettings))


@blueprint.post("/api/tax/vat-id")
@validate_request(VatIdIn)
@validate_response(VatIdOut, 200)
async def post_vat_id(data: VatIdIn) -> VatIdOut:
    """Check a business buyer's VAT ID: syntax and check digits at once (400 with the field
    `vat_id`), then the EU's VIES service (cached). VIES down: `pending`, re-checked later;
    VAT is charged until VIES confirms the ID."""
    client_ip = current_client_ip() or request.remote_addr or "unknown"
    result = await vatids.check_for_visitor(settings_of(TaxSettings), data.vat_id, client_ip)
    return VatIdOut(
        vat_id=result.vat_id,
        country=result.country,
        status=result.status,
        name=result.name,
        address=result.address,
        checked_at=result.checked_at,
        message=result.message,
    )
