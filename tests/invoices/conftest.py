"""The billing tests' fake Stripe and VIES fixtures, for the invoices tests that go through
the fake Stripe."""

from tests.billing.conftest import fake, stripe_fake, tax_shop, vies, vies_server

__all__ = ["fake", "stripe_fake", "tax_shop", "vies", "vies_server"]
