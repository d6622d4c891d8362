"""Invoices use cases, one file each; callers import the file they need.

- `recording`: Stripe's invoices, credit notes and refunds stored as their events arrive
  (idempotent; later events update the row).
- `stripe_shapes`: reading Stripe's objects: amounts, tax lines and their rates, the buyer.
- `reads`: the customer's invoice list, the admins' list.
- `report`: the agency's VAT report per quarter (revenue and VAT per country and rate, the
  recapitulative statement, the One-Stop-Shop return, the €10,000 threshold).
- `einvoice`: the EN 16931 e-invoice (Factur-X/ZUGFeRD CII XML) of a stored invoice.
- `user_data`: the user's invoices in their export; kept when they leave (§147 AO).
"""
