"""Whether payments are set up, told to the web UI in the HTML itself, so the purchase pages say
"Payments are not set up yet" before anything is typed, without a request and without moving
the page: every page's head has `<meta name="agency-payments" content="__AGENCY_PAYMENTS__">`,
filled with "on" or "off" at start-up, and the purchase pages are prerendered with the notice
(an element marked `data-payments-notice`), which is taken out when payments are set up."""

from __future__ import annotations

import re
from collections.abc import Callable

TOKEN = "__AGENCY_PAYMENTS__"
_NOTICE = re.compile(r"<(p|div)\b[^>]*\bdata-payments-notice\b[^>]*>.*?</\1>", re.DOTALL)


def html_filter(configured: bool) -> Callable[[str, str], str]:
    """(relative path of a built HTML file, its text) -> the text for these payments."""
    state = "on" if configured else "off"

    def fill(_relative: str, text: str) -> str:
        text = text.replace(TOKEN, state)
        return _NOTICE.sub("", text) if configured else text

    return fill
