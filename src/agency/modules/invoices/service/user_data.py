"""The user's invoices in their export, and what is kept when they leave.

Invoices and credit notes are the agency's books: §147 AO (with §14b UStG) has them kept for
10 years, with the buyer's name, address and VAT ID as issued (§14(4) UStG), so deleting an
account deletes none of them and changes nothing the invoice says. What goes is what the law
does not need: the link to the deleted account (`user_id`) and the e-mail address, which is no
part of an invoice. Refunds keep their amounts and lose the account link alike."""

from __future__ import annotations

from typing import Any

from agency.modules.invoices.models import Invoice, Refund
from agency.modules.invoices.service import reads


async def export_user(user_id: int) -> Any:
    """The user's invoices and credit notes as the dashboard lists them."""
    listed = await reads.invoices_for_user(user_id)
    return [invoice.model_dump(mode="json") for invoice in listed.invoices]


async def erase_user(user_id: int) -> None:
    await Invoice.filter(user_id=user_id).update(user_id=None, buyer_email=None)
    await Refund.filter(user_id=user_id).update(user_id=None)
