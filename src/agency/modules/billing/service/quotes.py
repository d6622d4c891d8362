"""`POST /api/billing/quote`: what a buyer would pay for a plan: net, VAT and gross for their
type (consumer or business), country and VAT ID, from the catalogue's price and the tax module's
rules (`tax.api.treatment`, `tax.api.quote_line`). With Stripe Tax on, Stripe calculates the VAT
at payment from the billing address and the quote says so (`calculated_at_payment`): the amounts
are then our preview of the same rules.

Public and rate-limited per client address (a quote with a VAT ID may ask VIES); a VAT ID that
VIES does not confirm is quoted with VAT and reported (`vat_id_status`), not refused.
"""

from __future__ import annotations

from agency.core import ratelimit
from agency.core.errors import ValidationFailed
from agency.core.ratelimit import Limit
from agency.modules.billing.schemas import QuoteIn, QuoteOut
from agency.modules.billing.service import buyer_tax
from agency.modules.catalogue import api as catalogue_api
from agency.modules.tax import api as tax_api

# A visitor changing country, type and VAT ID asks for a quote each time; far more is a script.
QUOTES_PER_ADDRESS = Limit("billing-quote-ip", limit=120, window=15 * 60, per_address=True)
MSG_SELECT_PACKAGE = "Please select a package"
MSG_INVALID_PACKAGE = "Please select a valid package"


async def quote(settings: tax_api.TaxSettings, data: QuoteIn, *, client_ip: str) -> QuoteOut:
    """The quote for `data`; ValidationFailed for an unknown plan, country or VAT ID syntax."""
    await ratelimit.enforce(QUOTES_PER_ADDRESS, client_ip)
    key = data.plan.strip()
    if not key:
        raise ValidationFailed(MSG_SELECT_PACKAGE, fields={"plan": MSG_SELECT_PACKAGE})
    plan = await catalogue_api.get_plan(key)
    if plan is None or not plan.active:
        raise ValidationFailed(MSG_INVALID_PACKAGE, fields={"plan": MSG_INVALID_PACKAGE})
    who = await buyer_tax.resolve(
        settings,
        buyer_type=data.buyer_type,
        country=data.country,
        vat_id=data.vat_id,
        refuse_invalid=False,
    )
    amounts = tax_api.quote_line(
        plan.price, who.treatment, prices_include_vat=settings.prices_include_vat
    )
    kind = who.treatment.kind
    return QuoteOut(
        currency=plan.currency.lower(),
        net=amounts.net,
        vat=amounts.vat,
        gross=amounts.gross,
        rate=who.treatment.rate_bp,
        kind=kind,
        country=who.country,
        note=who.treatment.note,
        vat_id_status=who.vat_id_status,
        calculated_at_payment=settings.stripe_tax and settings.vat_mode != "small_business",
    )
