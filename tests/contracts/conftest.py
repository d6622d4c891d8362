"""The billing tests' fake Stripe fixtures, for the contracts tests."""

from tests.billing.conftest import fake, stripe_fake

__all__ = ["fake", "stripe_fake"]
