"""A fake Google PageSpeed Insights v5 API, a real HTTP server on 127.0.0.1.

`GET /pagespeedonline/v5/runPagespeed` checks its query as Google does (`url` required and
matching `(?i)(url:|origin:)?http(s)?://.*`, `strategy` and `category` enums in any case, a
configured API key) and answers with the recorded fixtures in `fixtures/pagespeed/`, chosen by
the tested URL's host:

| Host | Answer |
| --- | --- |
| `fast.example`, `mid.example`, `slow.example` | 200, performance 95, 75, 45 |
| `score-N.example` (N in 0..100) | 200, performance N |
| `nofield.example` | 200, score 88, no field data (a site Chrome UX Report does not know) |
| `nocategory.example` | 200, a result without the performance category |
| `garbage.example` | 200 with an HTML body (not JSON) |
| `down.example` | 500, the recorded `FAILED_DOCUMENT_REQUEST` |
| `errored.example` | 500, `ERRORED_DOCUMENT_REQUEST ... (Status code: 500)` |
| `oops.example` | 500, `Lighthouse returned error: Something went wrong.` |
| `badgateway.example` | 502 with Google's HTML error page (no message) |
| `quota.example` | 429, the recorded quota error |
| `hang.example` | 200 after `hang_delay` seconds (past the client's timeout) |
| anything else | 200, a score derived from the host (the same host always scores the same) |

Scores are the same for both strategies, except for "anything else", where desktop scores a
third of the way closer to 100. The metrics (speed index, blocking time, LCP, FCP, CLS) and
three opportunities (below 90) follow from the score. `delay` makes every answer wait that many
seconds (the benchmark uses 20), `requests` logs every call, and `in_flight` / `max_in_flight`
count calls being answered.

From pytest::

    with run_fake_pagespeed() as fake:
        settings = Settings(pagespeed_api_base=fake.base_url, ...)

From a shell (the benchmark): ``python -m tests.fakes.pagespeed --port 12112 --delay 20``;
control endpoints ``GET /_fake/requests``, ``POST /_fake/reset``, ``POST /_fake/config``
(JSON ``{"delay": s, "hang_delay": s, "scores": {"host": N}}``: `scores` makes a host answer with
score N from then on, so a test can make a monitored site's score drop).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import hashlib
import json
import re
import time
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from quart import Response, request

from tests.fakes.serving import FakeServer, serving

FIXTURES = Path(__file__).parent / "fixtures" / "pagespeed"
PATH = "/pagespeedonline/v5/runPagespeed"
URL_PATTERN = re.compile(r"(?i)(url:|origin:)?http(s)?://.*")
STRATEGIES = {"DESKTOP", "MOBILE"}
CATEGORIES = {"ACCESSIBILITY", "BEST_PRACTICES", "PERFORMANCE", "SEO", "PWA"}
NAMED_SCORES = {"fast.example": 95, "mid.example": 75, "slow.example": 45, "nofield.example": 88}
SCORE_HOST = re.compile(r"score-(\d{1,3})\.example")
ERRORED_MESSAGE = (
    "Lighthouse returned error: ERRORED_DOCUMENT_REQUEST. Lighthouse was unable to reliably load "
    "the page you requested. Make sure you are testing the correct URL and that the server is "
    "properly responding to all requests. (Status code: 500)"
)
OOPS_MESSAGE = "Lighthouse returned error: Something went wrong."
# Google's front end answers its own failures with an HTML page, not the JSON envelope.
GOOGLE_502 = (
    "<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n"
    "  <title>Error 502 (Server Error)!!1</title>\n"
    "  <p><b>502.</b> <ins>That's an error.</ins>\n"
    "  <p>The server encountered a temporary error and could not complete your request.<p>"
    "Please try again in 30 seconds.  <ins>That's all we know.</ins>\n"
)
# Opportunities added to results below 90, in Lighthouse 12's shape: (id, title, savings per
# point below 100, whether the savings are in overallSavingsMs or only in metricSavings).
OPPORTUNITIES = [
    ("render-blocking-resources", "Eliminate render-blocking resources", 15, True),
    ("unused-javascript", "Reduce unused JavaScript", 10, True),
    ("offscreen-images", "Defer offscreen images", 5, False),
    ("modern-image-formats", "Serve images in next-gen formats", 3, True),
]


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


SUCCESS = load("psi-v5-mobile-success.sitekit-excerpt.json")
FAILED_DOCUMENT = load("psi-v5-error-500-failed-document-request.json")
QUOTA = load("psi-v5-error-429-quota-exceeded.json")


def google_error(status: int, message: str, reason: str, domain: str = "global") -> Any:
    """Google's error envelope."""
    statuses = {400: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL"}
    error: dict[str, Any] = {
        "code": status,
        "message": message,
        "errors": [{"message": message, "domain": domain, "reason": reason}],
    }
    if status in statuses and domain == "global":
        error["status"] = statuses[status]
    return {"error": error}


def score_for(host: str, strategy: str) -> int:
    """The performance score the fake gives a host (0-100)."""
    if host in NAMED_SCORES:
        return NAMED_SCORES[host]
    match = SCORE_HOST.fullmatch(host)
    if match and int(match.group(1)) <= 100:
        return int(match.group(1))
    digest = int.from_bytes(hashlib.sha256(host.encode()).digest()[:4], "big")
    mobile = 30 + digest % 71  # 30-100
    return mobile if strategy == "mobile" else mobile + (100 - mobile) // 3


def success_body(url: str, strategy: str, score: int, *, field_data: bool = True) -> Any:
    """The recorded success answer, made to say `score` for `url`."""
    body = copy.deepcopy(SUCCESS)
    lost = 100 - score  # points below 100: the metrics grow with it
    body["id"] = url
    for key in ("loadingExperience", "originLoadingExperience"):
        body[key]["id"] = url
    if not field_data:
        body["loadingExperience"] = {"initial_url": url}
        body.pop("originLoadingExperience", None)
    lhr = body["lighthouseResult"]
    lhr["requestedUrl"] = lhr["finalUrl"] = url
    lhr["configSettings"]["emulatedFormFactor"] = strategy
    lhr["fetchTime"] = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())
    lhr["categories"]["performance"]["score"] = score / 100
    audits = lhr["audits"]
    metrics = {
        "first-contentful-paint": 798 + lost * 25.37,
        "speed-index": 798 + lost * 61.41,
        "largest-contentful-paint": 1100 + lost * 45.5,
        "interactive": 798 + lost * 80.2,
        "total-blocking-time": 90 + lost * 12.26,
    }
    for audit_id, value in metrics.items():
        audits[audit_id]["numericValue"] = value
        shown = f"{value:,.0f}\u00a0ms" if audit_id == "total-blocking-time" else ""
        audits[audit_id]["displayValue"] = shown or f"{value / 1000:.1f}\u00a0s"
    audits["cumulative-layout-shift"]["numericValue"] = lost / 1000
    audits["cumulative-layout-shift"]["displayValue"] = f"{lost / 1000:.3f}"
    if score < 90:
        for audit_id, title, per_point, overall in OPPORTUNITIES:
            savings = lost * per_point
            audits[audit_id] = {
                "id": audit_id,
                "title": title,
                "description": f"{title}. [Learn more](https://developer.chrome.com/docs/lighthouse/performance/{audit_id}/).",
                "score": 0 if savings > 300 else 0.5,
                "scoreDisplayMode": "metricSavings",
                "displayValue": f"Est savings of {savings}\u00a0ms",
                "metricSavings": {"FCP": savings // 2, "LCP": savings},
                "details": {
                    "type": "opportunity",
                    "headings": [],
                    "items": [],
                    "overallSavingsMs": savings if overall else 0,
                    "sortedBy": ["wastedMs"],
                },
                "numericValue": savings,
                "numericUnit": "millisecond",
            }
        # A passed opportunity (score 1) is not one to report.
        audits["uses-text-compression"] = {
            "id": "uses-text-compression",
            "title": "Enable text compression",
            "score": 1,
            "scoreDisplayMode": "metricSavings",
            "metricSavings": {"FCP": 0, "LCP": 0},
            "details": {"type": "opportunity", "items": [], "overallSavingsMs": 0},
            "numericValue": 0,
        }
    return body


@dataclass(frozen=True)
class PsiCall:
    """One request the fake received."""

    url: str | None
    strategy: str | None
    categories: list[str]
    key: str | None
    host: str
    at: float


class FakePageSpeed(FakeServer):
    name = "fake-pagespeed"

    def __init__(
        self, *, api_key: str | None = None, delay: float = 0.0, hang_delay: float = 5.0
    ) -> None:
        super().__init__()
        self.api_key = api_key  # when set, a request with another key is refused
        self.delay = delay
        self.hang_delay = hang_delay
        self.requests: list[PsiCall] = []
        self.scores: dict[str, int] = {}  # host -> score, over the host's usual one
        self.in_flight = 0
        self.max_in_flight = 0
        self.app.add_url_rule(PATH, "run", self._run, methods=["GET"])
        self.app.add_url_rule("/_fake/requests", "requests", self._requests, methods=["GET"])
        self.app.add_url_rule("/_fake/reset", "reset", self._reset, methods=["POST"])
        self.app.add_url_rule("/_fake/config", "config", self._config, methods=["POST"])

    def reset(self) -> None:
        self.requests.clear()
        self.scores.clear()
        self.max_in_flight = self.in_flight

    def hosts(self) -> list[str]:
        return [call.host for call in self.requests]

    async def _run(self) -> Response:
        args = request.args
        url = args.get("url")
        call = PsiCall(
            url=url,
            strategy=args.get("strategy"),
            categories=args.getlist("category"),
            key=args.get("key"),
            host=_host(url or ""),
            at=time.time(),
        )
        self.requests.append(call)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            return await self._answer(call)
        finally:
            self.in_flight -= 1

    async def _answer(self, call: PsiCall) -> Response:
        if call.url is None:
            return _json(google_error(400, "Required parameter: url", "required"), 400)
        if not URL_PATTERN.fullmatch(call.url):
            message = f"Invalid value at 'url' (TYPE_STRING), \"{call.url}\""
            return _json(google_error(400, message, "invalid"), 400)
        strategy = (call.strategy or "DESKTOP").upper()  # Google's default is desktop
        if strategy not in STRATEGIES:
            message = (
                "Invalid value at 'strategy' (type.googleapis.com/google.chrome.pagespeedonline"
                f'.v5.RunPagespeedRequest.Strategy), "{call.strategy}"'
            )
            return _json(google_error(400, message, "invalid"), 400)
        for category in call.categories:
            if category.upper() not in CATEGORIES:
                message = (
                    "Invalid value at 'category' (type.googleapis.com/google.chrome."
                    f'pagespeedonline.v5.RunPagespeedRequest.Category), "{category}"'
                )
                return _json(google_error(400, message, "invalid"), 400)
        if self.api_key is not None and call.key is not None and call.key != self.api_key:
            message = "API key not valid. Please pass a valid API key."
            return _json(google_error(400, message, "badRequest"), 400)
        url = re.sub(r"(?i)^(url:|origin:)", "", call.url)
        host = call.host
        if host == "down.example":
            return _json(FAILED_DOCUMENT, 500)
        if host == "errored.example":
            return _json(google_error(500, ERRORED_MESSAGE, "lighthouseError", "lighthouse"), 500)
        if host == "oops.example":
            return _json(google_error(500, OOPS_MESSAGE, "lighthouseError", "lighthouse"), 500)
        if host == "badgateway.example":
            return Response(GOOGLE_502, status=502, content_type="text/html; charset=UTF-8")
        if host == "quota.example":
            return _json(QUOTA, 429)
        if host == "garbage.example":
            return Response("<html><body>Not JSON</body></html>", content_type="text/html")
        if host == "hang.example":
            await asyncio.sleep(self.hang_delay)
        lower = strategy.lower()
        field_data = host != "nofield.example"
        score = self.scores.get(host, score_for(host, lower))
        body = success_body(url, lower, score, field_data=field_data)
        if host == "nocategory.example":
            body["lighthouseResult"]["categories"] = {}
        return _json(body, 200)

    async def _requests(self) -> Response:
        return _json(
            {
                "requests": [asdict(call) for call in self.requests],
                "in_flight": self.in_flight,
                "max_in_flight": self.max_in_flight,
            },
            200,
        )

    async def _reset(self) -> Response:
        self.reset()
        return _json({"ok": True}, 200)

    async def _config(self) -> Response:
        data = await request.get_json(force=True, silent=True) or {}
        for key in ("delay", "hang_delay"):
            if isinstance(data.get(key), int | float):
                setattr(self, key, float(data[key]))
        scores = data.get("scores")
        if isinstance(scores, dict):
            for host, score in scores.items():
                if isinstance(score, int) and 0 <= score <= 100:
                    self.scores[str(host).lower()] = score
        return _json(
            {"delay": self.delay, "hang_delay": self.hang_delay, "scores": self.scores}, 200
        )


def _host(url: str) -> str:
    """The host of a tested URL (`url:` and `origin:` prefixes dropped), lower-case."""
    try:
        return urlsplit(re.sub(r"(?i)^(url:|origin:)", "", url)).hostname or ""
    except ValueError:  # e.g. an unclosed IPv6 bracket
        return ""


def _json(body: Any, status: int) -> Response:
    return Response(json.dumps(body), status=status, content_type="application/json; charset=UTF-8")


def run_fake_pagespeed(
    port: int | None = None,
    *,
    api_key: str | None = None,
    delay: float = 0.0,
    hang_delay: float = 5.0,
) -> AbstractContextManager[FakePageSpeed]:
    """Serve a fresh FakePageSpeed on 127.0.0.1 in a background thread."""
    return serving(FakePageSpeed(api_key=api_key, delay=delay, hang_delay=hang_delay), port)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Fake PageSpeed Insights v5 on 127.0.0.1")
    parser.add_argument("--port", type=int, default=12112)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before every answer")
    parser.add_argument("--hang-delay", type=float, default=5.0, help="seconds for hang.example")
    parser.add_argument("--api-key", default=None, help="refuse requests with another key")
    args = parser.parse_args(argv)
    fake = FakePageSpeed(api_key=args.api_key, delay=args.delay, hang_delay=args.hang_delay)
    fake.serve_forever(args.port)


if __name__ == "__main__":
    main()
