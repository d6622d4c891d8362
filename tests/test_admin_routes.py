"""Every admin route of every module answers 401 to a visitor and 403 to a signed-in user who
is not an admin, whatever the web UI shows (DECISIONS.md: server-side role checks).

The routes are read from the app's own route table, so a new `/api/admin/...` route is checked
the moment it exists: forgetting `auth_web.admin_required` (or putting a body check in front
of it) fails here."""

from __future__ import annotations

import re
from typing import Any

from tests.helpers.http import HEADERS, sign_up

ADMIN_PREFIX = "/api/admin/"
_PARAM = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")
# Routes the check must find, so it cannot pass by finding none.
EXPECTED = {
    ("GET", "/api/admin/leads"),
    ("GET", "/api/admin/articles"),
    ("POST", "/api/admin/articles"),
    ("POST", "/api/admin/articles/<int:article_id>/publish"),
    ("POST", "/api/admin/article-ideas"),
    ("GET", "/api/admin/generations/<generation_id>"),
    ("GET", "/api/admin/catalogue"),
    ("PATCH", "/api/admin/catalogue/plans/<key>"),
    ("GET", "/api/admin/audit"),
    ("GET", "/api/admin/overview"),
}


def admin_routes(app: Any) -> list[tuple[str, str, str]]:
    """(method, rule, a concrete path) of every route under /api/admin/."""
    found = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith(ADMIN_PREFIX):
            continue
        path = _PARAM.sub(lambda m: "1" if m.group(1) in ("int", "float") else "x", rule.rule)
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            found.append((method, rule.rule, path))
    return found


async def request(client: Any, method: str, path: str) -> int:
    response = await client.open(path, method=method, json={}, headers=HEADERS)
    return int(response.status_code)


async def test_every_admin_route_refuses_visitors_and_non_admins(app: Any) -> None:
    routes = admin_routes(app.app)
    assert {(method, rule) for method, rule, _ in routes} >= EXPECTED

    visitor = app.test_client()
    refused = {(m, r): await request(visitor, m, p) for m, r, p in routes}
    assert refused == dict.fromkeys(refused, 401)

    customer = app.test_client()
    status, data = await sign_up(customer, "customer@example.com")
    assert status in (200, 201), data
    refused = {(m, r): await request(customer, m, p) for m, r, p in routes}
    assert refused == dict.fromkeys(refused, 403)
