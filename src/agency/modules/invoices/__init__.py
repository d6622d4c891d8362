"""Invoices and credit notes as Stripe issued them (kept 10 years, §147 AO), refunds, the
customers' invoice list, the admins' list, the agency's VAT report and EN 16931 e-invoices."""
