"""The API's common behaviour, through the HTTP layer, on both databases."""

from __future__ import annotations

from typing import Any

from agency import __version__

JSON_HEADERS = {"X-Agency-Request": "1", "Content-Type": "application/json"}


async def test_health_reports_database_and_version(client: Any) -> None:
    response = await client.get("/api/health")
    assert response.status_code == 200
    assert await response.get_json() == {"status": "ok", "database": "ok", "version": __version__}
    assert response.headers["Cache-Control"] == "no-store"


async def test_unknown_api_path_is_a_json_404(client: Any) -> None:
    response = await client.get("/api/does-not-exist")
    assert response.status_code == 404
    assert await response.get_json() == {"error": {"code": "not_found", "message": "Not found."}}


async def test_wrong_method_is_a_json_405(client: Any) -> None:
    response = await client.delete("/api/health", headers=JSON_HEADERS)
    assert response.status_code == 405
    body = await response.get_json()
    assert body["error"]["code"] == "method_not_allowed"


async def test_unknown_page_is_a_404_page_not_a_redirect(client: Any) -> None:
    response = await client.get("/no/such/page")
    assert response.status_code == 404
    assert "Location" not in response.headers
    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
    assert "Page not found" in (await response.get_data(as_text=True))


async def test_security_headers_on_api_responses(client: Any) -> None:
    response = await client.get("/api/health")
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "Strict-Transport-Security" not in response.headers  # plain http here


async def test_request_id_is_generated_or_echoed(client: Any) -> None:
    generated = await client.get("/api/health")
    assert len(generated.headers["X-Request-ID"]) == 32
    echoed = await client.get("/api/health", headers={"X-Request-ID": "abc-123"})
    assert echoed.headers["X-Request-ID"] == "abc-123"
    refused = await client.get("/api/health", headers={"X-Request-ID": "bad id with spaces"})
    assert refused.headers["X-Request-ID"] != "bad id with spaces"


async def test_state_changing_call_without_csrf_header_is_refused(client: Any) -> None:
    response = await client.post("/api/health", json={})
    assert response.status_code == 403
    body = await response.get_json()
    assert body["error"] == {"code": "csrf_failed", "message": "Missing X-Agency-Request header."}


async def test_cross_site_call_is_refused_even_with_header(client: Any) -> None:
    response = await client.post(
        "/api/health", json={}, headers={**JSON_HEADERS, "Sec-Fetch-Site": "cross-site"}
    )
    assert response.status_code == 403
    assert (await response.get_json())["error"]["message"] == "Cross-site requests are not allowed."


async def test_openapi_document_lists_health(client: Any) -> None:
    response = await client.get("/openapi.json")
    assert response.status_code == 200
    document = await response.get_json()
    assert document["openapi"].startswith("3.1")
    assert "/api/health" in document["paths"]


async def test_docs_page_loads_no_third_party_script(client: Any) -> None:
    response = await client.get("/docs")
    assert response.status_code == 200
    html = (await response.get_data()).decode()
    assert 'src="/docs/swagger-ui-bundle.js"' in html
    assert "http" not in html.replace("http-equiv", "")  # nothing from another origin
