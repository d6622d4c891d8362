"""The order number a buyer sees (e-mails, /success, the dashboard) and types back (/withdraw,
/cancel): "AG-" and the order's id, zero-padded to six digits. Parsing is lenient about case,
spaces, the prefix and leading zeros, so "ag-42", "AG 000042" and "42" all name order 42."""

from __future__ import annotations

import re

PREFIX = "AG-"
_ORDER_NUMBER = re.compile(r"^\s*(?:AG\s*-?\s*)?0*(\d{1,12})\s*$", re.IGNORECASE)


def order_number(order_id: int) -> str:
    """42 -> "AG-000042"."""
    return f"{PREFIX}{order_id:06d}"


def parse_order_number(text: str) -> int | None:
    """The order id in what a person typed, or None when it is not an order number."""
    match = _ORDER_NUMBER.match(text)
    if match is None:
        return None
    order_id = int(match.group(1))
    return order_id if order_id > 0 else None
