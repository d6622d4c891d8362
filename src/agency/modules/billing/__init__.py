"""Payments: Stripe customers, checkout sessions, webhooks, subscriptions and orders.

Other modules use this module only through `agency.modules.billing.api`."""
