"""`agency doctor`'s "VAT at checkout (Stripe Tax)": what the tax settings mean for checkout."""

from __future__ import annotations

from agency.modules.billing.service.readiness import readiness
from agency.settings import Settings

TOPIC = "VAT at checkout (Stripe Tax)"


def _vat(**keys: object) -> tuple[bool, bool, str, str]:
    [found] = [r for r in readiness(Settings(**keys)) if r.topic == TOPIC]
    return found.ready, found.required, found.detail, found.next_step


def test_stripe_tax_off_is_an_optional_gap_with_the_next_step() -> None:
    ready, required, detail, step = _vat()
    assert (ready, required) == (False, False)
    assert "Stripe does not calculate it" in detail and "gross (inclusive)" in detail
    assert "AGENCY_STRIPE_TAX=true" in step and "Registrations" in step


def test_stripe_tax_without_a_stripe_key_is_missing() -> None:
    ready, required, detail, step = _vat(stripe_tax=True)
    assert (ready, required) == (False, True)
    assert "no Stripe key" in detail and "AGENCY_STRIPE_SECRET_KEY" in step


def test_stripe_tax_with_a_key_is_ready_and_names_what_lives_in_stripe() -> None:
    ready, required, detail, step = _vat(
        stripe_tax=True, stripe_secret_key="sk_test_x", prices_include_vat=False
    )
    assert (ready, required, step) == (True, True, "")
    assert "net (exclusive)" in detail and "sequential numbering" in detail


def test_the_small_business_rule_is_ready_and_says_what_invoices_say() -> None:
    ready, _, detail, _ = _vat(vat_mode="small_business")
    assert ready and "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet." in detail
