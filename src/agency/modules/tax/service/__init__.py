"""The tax module's use cases: `arithmetic` (who pays what VAT, gross/net in cents), `money`
(prices and rates formatted for a locale), `vatids` (VAT IDs: syntax, VIES, the cache, the
re-check job), `display` (the public tax block) and `checks` (settings checks, readiness)."""
