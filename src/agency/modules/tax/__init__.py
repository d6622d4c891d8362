"""Tax: the agency's VAT set-up (settings), the EU's standard rates, the gross/net arithmetic in
cents, prices formatted for a locale, and VAT IDs checked with the EU's VIES service. The lowest
module layer: every other module may import `agency.modules.tax.api`."""
