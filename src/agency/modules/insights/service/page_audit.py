"""The page audit: facts read from a page's HTML (issue 15)."""

from __future__ import annotations

from agency.modules.insights.schemas import PageFactsOut


def audit_html(html: str, *, final_url: str, http_status: int) -> PageFactsOut:
    raise NotImplementedError
