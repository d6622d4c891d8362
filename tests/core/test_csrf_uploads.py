"""The CSRF guard's upload paths (`Module.uploads`): a POST there may send multipart/form-data
instead of JSON, and nothing else changes (same site, the web UI's header); a path pattern's
`*` is one segment, never more, never none."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agency.core.web.security import CSRF_HEADER, csrf_failure, upload_path_matches

UPLOAD = "/api/admin/blog/articles/*/cover"
MULTIPART = "multipart/form-data; boundary=x"


def refusal(path: str, method: str = "POST", **headers: str) -> str | None:
    return csrf_failure(
        method=method,
        path=path,
        headers={"Content-Type": MULTIPART, CSRF_HEADER: "1", **headers},
        host="a.test",
        has_body=True,
        uploads=[UPLOAD],
    )


def test_a_multipart_post_passes_on_an_upload_path_only() -> None:
    assert refusal("/api/admin/blog/articles/7/cover") is None
    for path in (
        "/api/admin/blog/articles/7",
        "/api/admin/blog/articles/7/cover/x",
        "/api/admin/blog/articles//cover",
        "/api/admin/blog/articles/cover",
        "/api/admin/articles/7/cover",
    ):
        assert refusal(path) == "Requests must be sent as JSON.", path
    for method in ("PUT", "PATCH", "DELETE"):
        assert refusal("/api/admin/blog/articles/7/cover", method) == (
            "Requests must be sent as JSON."
        )


def test_an_upload_path_still_asks_for_the_same_site_and_the_header() -> None:
    path = "/api/admin/blog/articles/7/cover"
    assert refusal(path, **{"Sec-Fetch-Site": "cross-site"}) == (
        "Cross-site requests are not allowed."
    )
    assert refusal(path, Origin="https://evil.test") == "Cross-site requests are not allowed."
    headers = {"Content-Type": MULTIPART}
    assert csrf_failure(
        method="POST", path=path, headers=headers, host="a.test", has_body=True, uploads=[UPLOAD]
    ) == (f"Missing {CSRF_HEADER} header.")
    form = {"Content-Type": "application/x-www-form-urlencoded", CSRF_HEADER: "1"}
    assert csrf_failure(
        method="POST", path=path, headers=form, host="a.test", has_body=True, uploads=[UPLOAD]
    ) == ("Requests must be sent as JSON.")


segment = st.text(st.sampled_from("ab7/"), max_size=6)


@given(segment, segment)
def test_a_star_stands_for_exactly_one_non_empty_segment(middle: str, tail: str) -> None:
    path = f"/api/x/{middle}/file{tail}"
    expected = middle != "" and "/" not in middle and tail == ""
    assert upload_path_matches("/api/x/*/file", path) is expected
