"""Billing use cases, one file each; callers import the file they need
(`from agency.modules.billing.service import checkout`).

- `checkout`: the purchase: a signed-out buyer's account first, then a Stripe Checkout Session.
- `webhooks`: Stripe's events, stored and applied once (the only truth about payments); replay.
- `effects`: what an event changes, prepared from Stripe's current objects.
- `subscriptions`: a Stripe subscription as the row we keep; reconcile every known one.
- `reads`: what the dashboard shows: subscription, orders, a checkout's status, the portal.
- `prices`: the catalogue's Products and Prices at Stripe (`agency stripe sync`).
- `retention`: webhook events deleted after their time (180 days by default).
- `order_numbers`: the order number a buyer sees and types back ("AG-000042").
- `user_data`: the user's billing data in an export, and what is kept when they leave.
"""
