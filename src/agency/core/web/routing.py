"""URL matching that leaves no garbage behind for the paths the API is asked most.

werkzeug's `StateMachineMatcher.match` walks its state machine with a nested function that
calls itself: every call builds a closure that refers to itself, a reference cycle (function,
closure cells, a set) that only the cyclic garbage collector frees. At thousands of requests a
second that was the one cycle per request, and the collections it set off (one every ten or so
requests, each walking every young object of the fifty requests under way) cost more than
the matching itself.

`RememberingMatcher` answers a path it has matched to a rule without variables (all the hot
reads: `/api/auth/me`, `/api/health`, ...) from a dict, without walking the state machine. The
answer of such a rule depends on nothing but the request's domain part, path, method and
websocket flag, which are the key; a path with variables, a miss, a redirect or a 405 goes
through werkzeug as before. At most `MAX_REMEMBERED` answers are kept: there are only so many
rules without variables, but the key holds the path as requested.
"""

from __future__ import annotations

import typing as t

from quart import Quart
from werkzeug.routing import Rule
from werkzeug.routing.matcher import StateMachineMatcher

MAX_REMEMBERED = 1024


class RememberingMatcher(StateMachineMatcher):
    def __init__(self, merge_slashes: bool) -> None:
        super().__init__(merge_slashes)
        self._remembered: dict[tuple[str, str, str, bool], Rule] = {}

    def add(self, rule: Rule) -> None:
        self._remembered.clear()  # a new rule may take a path over
        super().add(rule)

    def update(self) -> None:
        self._remembered.clear()
        super().update()

    def match(
        self, domain: str, path: str, method: str, websocket: bool
    ) -> tuple[Rule, t.MutableMapping[str, t.Any]]:
        key = (domain, path, method, websocket)
        rule = self._remembered.get(key)
        if rule is not None:
            return rule, dict(rule.defaults or {})
        rule, values = super().match(domain, path, method, websocket)
        # Only a rule without variables (whose values are its defaults alone) and without
        # an alias redirect (werkzeug raises for those before returning).
        if not rule.arguments and len(self._remembered) < MAX_REMEMBERED:
            self._remembered[key] = rule
        return rule, values


def remember_matches(app: Quart) -> None:
    """Gives `app`'s URL map a `RememberingMatcher`, keeping the rules it has already."""
    url_map = app.url_map
    matcher = RememberingMatcher(url_map.merge_slashes)
    for rule in url_map.iter_rules():
        matcher.add(rule)
    matcher.update()
    url_map._matcher = matcher  # werkzeug's Map has no public way to choose its matcher
