"""`core.web.routing`: URL matching that remembers the paths of rules without variables.

It must answer exactly as werkzeug's matcher does, the first time and from memory, for the
app's own rules and any path (hypothesis); and a remembered match must leave no reference
cycle behind (the point of it: werkzeug's leaves one per call)."""

from __future__ import annotations

import gc
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from quart import Quart
from werkzeug.exceptions import HTTPException
from werkzeug.routing import Map, MapAdapter, RequestRedirect, Rule

from agency.app import create_app
from agency.core.web.routing import MAX_REMEMBERED, RememberingMatcher, remember_matches
from tests.conftest import make_settings

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")


@cache
def agency_rules() -> list[Rule]:
    """The real app's rules (built once; the app is never started)."""
    work = Path(tempfile.mkdtemp(prefix="agency-routing-"))
    app = create_app(make_settings(work, f"sqlite://{work}/agency.db"))
    assert isinstance(app.url_map._matcher, RememberingMatcher)
    return list(app.url_map.iter_rules())


@cache
def plain_and_remembering() -> tuple[MapAdapter, MapAdapter]:
    """Two maps of the app's rules, one with werkzeug's matcher, one with ours (shared by
    every example: ours remembers across them, as it does across requests)."""
    plain, ours = Map(), Map()
    ours._matcher = RememberingMatcher(ours.merge_slashes)
    for rule in agency_rules():
        for url_map in (plain, ours):
            url_map.add(
                Rule(
                    rule.rule,
                    endpoint=rule.endpoint,
                    methods=rule.methods,
                    defaults=rule.defaults,
                    strict_slashes=rule.strict_slashes,
                    websocket=rule.websocket,
                )
            )
    return plain.bind("localhost"), ours.bind("localhost")


def outcome(adapter: MapAdapter, path: str, method: str) -> Any:
    """What matching answered: the endpoint and values, or the exception's kind and gist."""
    try:
        endpoint, values = adapter.match(path, method)
    except RequestRedirect as redirect:
        return ("redirect", redirect.new_url)
    except HTTPException as error:
        return (type(error).__name__, getattr(error, "valid_methods", None))
    return ("match", endpoint, values)


def rule_paths() -> st.SearchStrategy[str]:
    """The app's rule paths, with variables filled in, often changed a little."""

    def fill(rule: Rule) -> st.SearchStrategy[str]:
        parts = rule.rule.split("/")
        filled = [
            st.one_of(st.integers(-5, 10**6).map(str), st.text(min_size=0, max_size=8))
            if part.startswith("<")
            else st.just(part)
            for part in parts
        ]
        return st.tuples(*filled).map("/".join)

    paths = st.sampled_from(agency_rules()).flatmap(fill)
    changed = st.tuples(paths, st.sampled_from(["", "/", "//", "x", "/x", "?"])).map("".join)
    return st.one_of(paths, changed, st.text(max_size=30).map(lambda text: "/" + text))


@settings(max_examples=400, deadline=None)
@given(path=rule_paths(), method=st.sampled_from(METHODS))
def test_answers_as_werkzeug_does_first_time_and_from_memory(path: str, method: str) -> None:
    plain, ours = plain_and_remembering()
    expected = outcome(plain, path, method)
    assert outcome(ours, path, method) == expected
    assert outcome(ours, path, method) == expected  # now remembered, if it can be


@pytest.fixture
def no_collection() -> Iterator[None]:
    """The cyclic collector off, and everything it finds kept in `gc.garbage` to count."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def garbage_of(adapter: MapAdapter, path: str, times: int) -> int:
    """How many objects in reference cycles `times` matches of `path` left behind."""
    adapter.match(path, "GET")  # the first match may walk the state machine
    # Free what is garbage so far (kept in `gc.garbage`, it would be found again).
    gc.set_debug(0)
    gc.garbage.clear()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    for _ in range(times):
        adapter.match(path, "GET")
    gc.collect()
    return len(gc.garbage)


def test_a_remembered_match_leaves_no_reference_cycle(no_collection: None) -> None:
    plain, ours = plain_and_remembering()
    # The fault it avoids, so that this test fails if werkzeug changes under it.
    assert garbage_of(plain, "/api/auth/me", 50) >= 50
    assert garbage_of(ours, "/api/auth/me", 50) == 0


def test_the_app_answers_a_request_without_leaving_a_cycle(no_collection: None) -> None:
    app = Quart("cycles")
    remember_matches(app)

    @app.get("/api/ping")
    async def ping() -> str:
        return "pong"

    adapter = app.url_map.bind("localhost")
    assert garbage_of(adapter, "/api/ping", 20) == 0


def test_rules_added_later_are_matched_and_memory_is_bounded() -> None:
    app = Quart("late")
    remember_matches(app)
    matcher = app.url_map._matcher
    assert isinstance(matcher, RememberingMatcher)

    @app.get("/<path:anything>")
    async def anything(anything: str) -> str:
        return anything

    app.add_url_rule("/first", "first", anything, methods=["GET"], defaults={"anything": "1"})
    adapter = app.url_map.bind("localhost")
    assert adapter.match("/a/b") == ("anything", {"anything": "a/b"})
    for _ in range(2):  # a rule's defaults are its values, from memory too
        assert adapter.match("/first") == ("first", {"anything": "1"})
    for number in range(MAX_REMEMBERED + 10):
        app.add_url_rule(f"/static-{number}", f"static_{number}", anything, methods=["GET"])
    adapter = app.url_map.bind("localhost")
    for number in range(MAX_REMEMBERED + 10):
        assert adapter.match(f"/static-{number}") == (f"static_{number}", {})
    assert len(matcher._remembered) == MAX_REMEMBERED
    # A new rule forgets what was remembered: it may take a path over.
    app.add_url_rule("/static-1", "again", anything, methods=["POST"])
    assert not matcher._remembered
