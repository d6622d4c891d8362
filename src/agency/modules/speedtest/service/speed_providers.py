"""Page-speed providers behind one interface: Google PageSpeed Insights v5 over httpx, and a
local Lighthouse run. Both read a Lighthouse result (LHR) into a `SpeedReport`; failures raise
`SpeedTestFailed` with the spec's message (§8), word for word.

The interface the speed-test job relies on (it calls `provider_for(settings, name)`): keep these
names and fields.

- `PageSpeedInsights`: `GET {base}/pagespeedonline/v5/runPagespeed?url=&strategy=&category=
  performance[&key=]` (design notes §B1); the answer's `lighthouseResult` is read by
  `parse_lighthouse_result`, its `loadingExperience` (Chrome UX Report field data) by
  `parse_field_data`.
- `LocalLighthouse`: the `lighthouse` command with a headless Chromium on this machine, its JSON
  report on stdout; at most one run per CPU core at a time in a process (the rest wait).

The caller refuses private and loopback targets before it gets here. PSI's browser is
Google's; the local one is ours, so `LocalLighthouse` also sends every connection of its
Chromium (redirects, subresources) through an egress proxy that refuses them
(`net/egress_proxy.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import signal
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from agency.modules.speedtest.settings import SpeedtestSettings
from agency.net import bounded_body
from agency.net.addresses import Resolver, is_public_address
from agency.net.egress_proxy import Allowed, EgressProxy
from agency.net.tls import tls_context

# httpx loads with the first speed test (tls_context, PageSpeedInsights.run), not with the
# server: about 40 ms of every start.
log = logging.getLogger(__name__)

Strategy = Literal["mobile", "desktop"]
ProviderName = Literal["psi", "lighthouse"]

MSG_UNREACHABLE = (
    "Unable to access the website. Please check if the domain is correct and the website is "
    "accessible."
)
MSG_RUN_FAILED = "Failed to run PageSpeed test."
MSG_INVALID_RESPONSE = "Invalid response from PageSpeed API."
MSG_GENERIC = "Failed to test website speed."
# PSI's 429 (per-minute, per-100-seconds or daily quota of the key, or the keyless shared one).
MSG_QUOTA = (
    "The speed-test service's quota is used up for now (too many tests). Please try again later."
)


@dataclass(frozen=True)
class FieldMetric:
    """Field data (Chrome UX Report) for one metric at p75, when Google has it."""

    name: str  # "LCP", "INP" or "CLS"
    percentile: float  # ms for LCP/INP; CLS as a plain number (Google sends CLS x 100)
    category: str  # "FAST", "AVERAGE" or "SLOW"


@dataclass(frozen=True)
class Opportunity:
    """A Lighthouse opportunity, in plain words, with the time it would save."""

    id: str
    title: str
    savings_ms: int


@dataclass(frozen=True)
class SpeedReport:
    score: int  # performance score x 100, rounded, 0-100
    speed_index_ms: int  # rounded
    total_blocking_time_ms: int  # rounded
    largest_contentful_paint_ms: int | None
    cumulative_layout_shift: float | None
    first_contentful_paint_ms: int | None
    final_url: str
    provider: ProviderName
    lighthouse_version: str = ""
    field_data: list[FieldMetric] = field(default_factory=list)
    field_overall: str | None = None  # loadingExperience.overall_category
    opportunities: list[Opportunity] = field(default_factory=list)  # the 3 largest, largest first


class SpeedTestFailed(Exception):
    """A speed test that could not produce a result; `message` is what the visitor sees."""

    def __init__(self, message: str, *, quota: bool = False, retryable: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.quota = quota  # the provider's quota is used up (PSI 429)
        self.retryable = retryable  # worth another attempt (timeouts, 5xx other than the page's)


class SpeedProvider(Protocol):
    name: ProviderName

    async def run(self, url: str, strategy: Strategy) -> SpeedReport:
        """Test `url` (already `https://`-prefixed by the caller when it had no scheme)."""
        ...


# --------------------------------------------------------------------------------------------
# Reading a Lighthouse result

# Lighthouse runtime errors meaning the page itself could not be loaded: the visitor is told to
# check the domain (spec §8 names FAILED_DOCUMENT_REQUEST; the others are the same situation:
# an error status, no DNS answer, a refused connection or a certificate Chrome will not accept).
UNREACHABLE_CODES = frozenset(
    {
        "FAILED_DOCUMENT_REQUEST",
        "ERRORED_DOCUMENT_REQUEST",
        "DNS_FAILURE",
        "CHROME_INTERSTITIAL_ERROR",
        "INSECURE_DOCUMENT_REQUEST",
    }
)
# A page that could not be loaded is fatal in the Lighthouse 12 CLI: no report, only
# "Runtime error encountered: <message>" on stderr; these are the UNREACHABLE_CODES' messages
# (lighthouse/core/lib/lh-error.js), and the codes themselves should a stack trace name them.
UNREACHABLE_TEXTS = (
    *sorted(UNREACHABLE_CODES),
    "Lighthouse was unable to reliably load the page you requested.",
    "DNS servers could not resolve the provided domain.",
    "Chrome prevented page load with an interstitial.",
    "The URL you have provided does not have a valid security certificate.",
)
# Field-data metrics we keep, by their PSI name: (our name, divisor of the percentile).
FIELD_METRICS: dict[str, tuple[str, float]] = {
    "LARGEST_CONTENTFUL_PAINT_MS": ("LCP", 1.0),
    "INTERACTION_TO_NEXT_PAINT": ("INP", 1.0),
    "CUMULATIVE_LAYOUT_SHIFT_SCORE": ("CLS", 100.0),
}
FIELD_CATEGORIES = frozenset({"FAST", "AVERAGE", "SLOW"})
MAX_MS = 2**31 - 1  # a metric past this (24 days) is nonsense, and would not fit the column
MAX_MESSAGE = 500  # a provider's message shown to the visitor is cut to this many characters
OPPORTUNITIES = 3


def _number(value: object) -> float | None:
    """A finite number (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _one_of(value: object, allowed: frozenset[str]) -> str | None:
    """`value` when it is one of the `allowed` strings, else None (whatever its type)."""
    return value if isinstance(value, str) and value in allowed else None


def _round(value: float) -> int:
    """Rounded half up, like the JavaScript `Math.round` of the original pages (Python's
    `round` takes half to even: a score of 0.125 would read 12 instead of 13)."""
    return math.floor(value + 0.5)


def _ms(audits: Mapping[str, Any], audit_id: str) -> int | None:
    """An audit's numericValue in milliseconds, rounded; None when absent or nonsense."""
    audit = audits.get(audit_id)
    if not isinstance(audit, Mapping):
        return None
    value = _number(audit.get("numericValue"))
    if value is None or value < 0 or value > MAX_MS:
        return None
    return _round(value)


def _cls(audits: Mapping[str, Any]) -> float | None:
    audit = audits.get("cumulative-layout-shift")
    if not isinstance(audit, Mapping):
        return None
    value = _number(audit.get("numericValue"))
    if value is None or value < 0 or value > 1_000_000:
        return None
    return round(value, 4)


def _plain_title(title: str) -> str:
    """An audit title as plain words: Lighthouse marks code with backticks."""
    return " ".join(title.replace("`", "").split())[:200]


def _savings(audit: Mapping[str, Any]) -> float:
    """The time an opportunity would save: overallSavingsMs, or (Lighthouse 11 and later, where
    that is often 0) the larger of its LCP and FCP savings."""
    details = audit.get("details")
    best = 0.0
    if isinstance(details, Mapping):
        best = _number(details.get("overallSavingsMs")) or 0.0
    metric_savings = audit.get("metricSavings")
    if isinstance(metric_savings, Mapping):
        for metric in ("LCP", "FCP"):
            best = max(best, _number(metric_savings.get(metric)) or 0.0)
    return best if best <= MAX_MS else 0.0


def parse_opportunities(audits: Mapping[str, Any]) -> list[Opportunity]:
    """The three opportunities that would save the most time, largest first.

    An opportunity is an audit whose details are of type "opportunity", that did not pass
    (score below 0.9, Lighthouse's pass mark) and that would save some time."""
    found: list[Opportunity] = []
    for audit_id, audit in audits.items():
        if not isinstance(audit, Mapping) or not isinstance(audit_id, str):
            continue
        details = audit.get("details")
        if not isinstance(details, Mapping) or details.get("type") != "opportunity":
            continue
        score = _number(audit.get("score"))
        if score is not None and score >= 0.9:
            continue
        title = audit.get("title")
        if not isinstance(title, str) or not title.strip():
            continue
        savings = _round(_savings(audit))
        if savings > 0:
            found.append(Opportunity(id=audit_id, title=_plain_title(title), savings_ms=savings))
    found.sort(key=lambda o: (-o.savings_ms, o.id))
    return found[:OPPORTUNITIES]


def _runtime_error(lhr: Mapping[str, Any]) -> SpeedTestFailed | None:
    error = lhr.get("runtimeError")
    if not isinstance(error, Mapping):
        return None
    if _one_of(error.get("code"), UNREACHABLE_CODES) is not None:
        return SpeedTestFailed(MSG_UNREACHABLE)
    message = error.get("message")
    if isinstance(message, str) and message.strip():
        return SpeedTestFailed(_visitor_message(message))
    return SpeedTestFailed(MSG_RUN_FAILED)


def parse_lighthouse_result(lhr: object, provider: ProviderName) -> SpeedReport:
    """Read a Lighthouse result into a SpeedReport (no field data: that is PSI's, outside it).

    A run that ended in a runtime error raises its message (MSG_UNREACHABLE when the page
    could not be loaded); a result without a performance score, speed index or total blocking
    time raises MSG_INVALID_RESPONSE. Any other missing part is None. Nothing else is raised,
    whatever the input."""
    if not isinstance(lhr, Mapping):
        raise SpeedTestFailed(MSG_INVALID_RESPONSE)
    categories = lhr.get("categories")
    performance = categories.get("performance") if isinstance(categories, Mapping) else None
    score = _number(performance.get("score")) if isinstance(performance, Mapping) else None
    if score is None or not 0 <= score <= 1:
        # Lighthouse writes a null score when the run failed; its runtimeError says why.
        raise _runtime_error(lhr) or SpeedTestFailed(MSG_INVALID_RESPONSE)
    failure = _runtime_error(lhr)
    if failure is not None:
        raise failure
    audits = lhr.get("audits")
    if not isinstance(audits, Mapping):
        raise SpeedTestFailed(MSG_INVALID_RESPONSE)
    speed_index = _ms(audits, "speed-index")
    blocking = _ms(audits, "total-blocking-time")
    if speed_index is None or blocking is None:
        raise SpeedTestFailed(MSG_INVALID_RESPONSE)
    final_url = ""
    for key in ("finalDisplayedUrl", "finalUrl", "mainDocumentUrl", "requestedUrl"):
        value = lhr.get(key)
        if isinstance(value, str) and value:
            final_url = value[:2048]
            break
    version = lhr.get("lighthouseVersion")
    return SpeedReport(
        score=_round(score * 100),
        speed_index_ms=speed_index,
        total_blocking_time_ms=blocking,
        largest_contentful_paint_ms=_ms(audits, "largest-contentful-paint"),
        cumulative_layout_shift=_cls(audits),
        first_contentful_paint_ms=_ms(audits, "first-contentful-paint"),
        final_url=final_url,
        provider=provider,
        lighthouse_version=version[:32] if isinstance(version, str) else "",
        opportunities=parse_opportunities(audits),
    )


def parse_field_data(loading_experience: object) -> tuple[list[FieldMetric], str | None]:
    """PSI's `loadingExperience`: p75 LCP, INP and CLS with their categories, and the overall
    category; ([], None) when Google has no field data for the page (no `metrics`)."""
    if not isinstance(loading_experience, Mapping):
        return [], None
    metrics = loading_experience.get("metrics")
    found: list[FieldMetric] = []
    if isinstance(metrics, Mapping):
        for key, (name, divisor) in FIELD_METRICS.items():
            metric = metrics.get(key)
            if not isinstance(metric, Mapping):
                continue
            percentile = _number(metric.get("percentile"))
            category = _one_of(metric.get("category"), FIELD_CATEGORIES)
            if percentile is None or percentile < 0 or percentile > MAX_MS or category is None:
                continue
            found.append(FieldMetric(name, round(percentile / divisor, 4), category))
    overall = _one_of(loading_experience.get("overall_category"), FIELD_CATEGORIES)
    return found, overall if found else None


def parse_psi_response(body: object) -> SpeedReport:
    """A PageSpeed Insights v5 answer (HTTP 200) as a SpeedReport."""
    if not isinstance(body, Mapping):
        raise SpeedTestFailed(MSG_INVALID_RESPONSE)
    report = parse_lighthouse_result(body.get("lighthouseResult"), "psi")
    field_data, overall = parse_field_data(body.get("loadingExperience"))
    return replace(report, field_data=field_data, field_overall=overall)


def _visitor_message(message: str) -> str:
    return " ".join(message.split())[:MAX_MESSAGE] or MSG_RUN_FAILED


def psi_error(status: int, body: object) -> SpeedTestFailed:
    """What a PageSpeed Insights error answer (Google's envelope) means for the visitor."""
    if status == 429:
        return SpeedTestFailed(MSG_QUOTA, quota=True)
    message = None
    reason = None
    if isinstance(body, Mapping) and isinstance(body.get("error"), Mapping):
        error = body["error"]
        if isinstance(error.get("message"), str) and error["message"].strip():
            message = error["message"]
        errors = error.get("errors")
        if isinstance(errors, list) and errors and isinstance(errors[0], Mapping):
            reason = errors[0].get("reason")
            if message is None and isinstance(errors[0].get("message"), str):
                message = errors[0]["message"] or None
    if message is not None and any(code in message for code in UNREACHABLE_CODES):
        return SpeedTestFailed(MSG_UNREACHABLE)
    # A 5xx that is not Lighthouse's verdict on the page is Google's trouble: worth a retry.
    retryable = status >= 500 and reason != "lighthouseError"
    if message is None:
        return SpeedTestFailed(MSG_RUN_FAILED, retryable=retryable)
    return SpeedTestFailed(_visitor_message(message), retryable=retryable)


# --------------------------------------------------------------------------------------------
# Google PageSpeed Insights v5

PSI_PATH = "/pagespeedonline/v5/runPagespeed"
# The most a PageSpeed answer may decode to (net/bounded_body.py). A real one is a whole
# Lighthouse result with its screenshots as base64 (the thumbnails, the final and the full-page
# one): 370 kB for a one-screen page, 1-2 MB for a long page with many requests. Four times
# that leaves room, and bounds what a misbehaving answer costs: its JSON, parsed on the event
# loop, can take 20 times its size in memory and 0.3 s at this size.
PSI_MAX_BYTES = 8 * 1024 * 1024


@dataclass
class PageSpeedInsights:
    """Google PageSpeed Insights v5: Google's servers run Lighthouse on the page."""

    api_base: str = "https://pagespeedonline.googleapis.com"
    api_key: str = ""
    timeout: float = 60.0
    name: ProviderName = "psi"

    async def run(self, url: str, strategy: Strategy) -> SpeedReport:
        params = {"url": url, "strategy": strategy, "category": "performance"}
        if self.api_key:
            params["key"] = self.api_key
        endpoint = self.api_base.rstrip("/") + PSI_PATH
        import httpx

        try:
            async with httpx.AsyncClient(
                timeout=self.timeout,
                verify=tls_context(),
                event_hooks=bounded_body.httpx_hooks(max_bytes=PSI_MAX_BYTES),
            ) as client:
                response = await client.get(endpoint, params=params)
        except bounded_body.BodyLimitError as exc:
            # Too large decoded, or an encoding we do not read: not a PageSpeed answer.
            log.warning("PageSpeed Insights' answer for %s was refused: %s", url, exc)
            raise SpeedTestFailed(MSG_INVALID_RESPONSE) from None
        except httpx.HTTPError as exc:
            # Never log the request URL: it carries the API key.
            log.warning("PageSpeed Insights did not answer for %s: %s", url, type(exc).__name__)
            raise SpeedTestFailed(MSG_GENERIC, retryable=True) from None
        try:
            body = response.json()
        except (ValueError, RecursionError):
            body = None
        if response.status_code != 200:
            failure = psi_error(response.status_code, body)
            log.warning(
                "PageSpeed Insights answered %s for %s: %s",
                response.status_code,
                url,
                failure.message,
            )
            raise failure
        if body is None:
            raise SpeedTestFailed(MSG_INVALID_RESPONSE)
        return parse_psi_response(body)


# --------------------------------------------------------------------------------------------
# Local Lighthouse

CHROME_FLAGS = " ".join(
    [
        "--headless=new",
        "--no-sandbox",  # runs as a service user, often in a container without user namespaces
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-sync",
        "--metrics-recording-only",
        "--mute-audio",
        "--no-first-run",
        "--no-default-browser-check",
    ]
)
# With the egress proxy: Chromium resolves no host itself and sends everything to the proxy,
# loopback included (it bypasses proxies for localhost unless told `<-loopback>`); no QUIC
# (UDP, which an HTTP proxy does not carry) and no WebRTC UDP outside the proxy.
PROXY_FLAGS = (
    "--proxy-server={url}",
    "--proxy-bypass-list=<-loopback>",
    "--disable-quic",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
)
STOP_GRACE = 5.0  # seconds Lighthouse gets to close its browser after SIGINT

_slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


def lighthouse_slots() -> asyncio.Semaphore:
    """The running loop's limit on simultaneous local runs: one per CPU core (each run is a
    Chromium busy on one core; more at once would make every score worse)."""
    loop = asyncio.get_running_loop()
    slots = _slots.get(loop)
    if slots is None:
        slots = _slots[loop] = asyncio.Semaphore(os.cpu_count() or 1)
    return slots


@dataclass
class LocalLighthouse:
    """The `lighthouse` command (npm) with a headless Chromium on this machine."""

    lighthouse_path: str = "lighthouse"
    chrome_path: str = ""
    timeout: float = 60.0
    name: ProviderName = "lighthouse"
    # Only for tests (AGENCY_SPEEDTEST_UNSAFE_ALLOW_PRIVATE_TARGETS): no egress proxy.
    private_targets: bool = False
    # The proxy's rule and resolver (tests inject theirs; None: public addresses, the system's).
    allowed: Allowed | None = field(default=None, compare=False, repr=False)
    resolver: Resolver | None = field(default=None, compare=False, repr=False)

    def argv(self, url: str, strategy: Strategy, proxy_url: str | None = None) -> list[str]:
        flags = CHROME_FLAGS
        if proxy_url is not None:
            flags += " " + " ".join(PROXY_FLAGS).format(url=proxy_url)
        argv = [
            self.lighthouse_path,
            url,
            "--output=json",
            "--output-path=stdout",
            "--quiet",
            "--only-categories=performance",
            f"--chrome-flags={flags}",
            "--no-enable-error-reporting",
            f"--max-wait-for-load={round(self.timeout * 1000 * 3 / 4)}",
        ]
        if strategy == "desktop":
            argv.append("--preset=desktop")
        return argv

    async def run(self, url: str, strategy: Strategy) -> SpeedReport:
        async with lighthouse_slots():
            if self.private_targets:
                stdout = await self._run(url, strategy, None)
            else:
                # One proxy per run: it lives exactly as long as the browser it serves.
                proxy = EgressProxy(
                    allowed=self.allowed or is_public_address, resolver=self.resolver
                )
                async with proxy:
                    stdout = await self._run(url, strategy, proxy.url)
        try:
            lhr = json.loads(stdout)
        except (ValueError, RecursionError):
            raise SpeedTestFailed(MSG_INVALID_RESPONSE) from None
        return parse_lighthouse_result(lhr, "lighthouse")

    async def _run(self, url: str, strategy: Strategy, proxy_url: str | None) -> bytes:
        env = dict(os.environ)
        if self.chrome_path:
            env["CHROME_PATH"] = self.chrome_path
        try:
            proc = await asyncio.create_subprocess_exec(
                *self.argv(url, strategy, proxy_url),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=env,
                # Its own process group: a signal to us is not one to it, and we can stop it.
                start_new_session=True,
            )
        except OSError as exc:
            log.error(
                "cannot start Lighthouse (%r): %s; install it (README 'Speed-test providers') "
                "or set AGENCY_LIGHTHOUSE_PATH",
                self.lighthouse_path,
                exc,
            )
            raise SpeedTestFailed(MSG_GENERIC) from None
        try:
            stdout, stderr = await asyncio.wait_for(proc.communicate(), self.timeout)
        except TimeoutError:
            log.warning("Lighthouse took more than %s s for %s: stopped", self.timeout, url)
            await _stop(proc)
            raise SpeedTestFailed(MSG_GENERIC, retryable=True) from None
        except asyncio.CancelledError:
            await _stop(proc)
            raise
        if proc.returncode != 0:
            # With a runtime error (page not loaded...) Lighthouse still prints its report and
            # exits 1: the report says what happened.
            try:
                lhr = json.loads(stdout)
            except (ValueError, RecursionError):
                lhr = None
            failure = _runtime_error(lhr) if isinstance(lhr, Mapping) else None
            errors = stderr.decode("utf-8", "replace")
            if failure is None and any(text in errors for text in UNREACHABLE_TEXTS):
                failure = SpeedTestFailed(MSG_UNREACHABLE)
            log.warning(
                "Lighthouse exited with %s for %s: %s",
                proc.returncode,
                url,
                stderr.decode("utf-8", "replace").strip()[-2000:],
            )
            raise failure or SpeedTestFailed(MSG_RUN_FAILED)
        return stdout


async def _stop(proc: asyncio.subprocess.Process) -> None:
    """Stop a Lighthouse run: SIGINT first, on which it closes the Chromium it started (which
    runs in a process group of its own), then SIGKILL to its group."""
    if proc.returncode is not None:
        return
    try:
        proc.send_signal(signal.SIGINT)
    except ProcessLookupError:
        return
    try:
        await asyncio.wait_for(asyncio.shield(proc.wait()), STOP_GRACE)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        await proc.wait()


# --------------------------------------------------------------------------------------------


def provider_for(settings: SpeedtestSettings, name: ProviderName | None = None) -> SpeedProvider:
    """The provider `name`, else the configured one (AGENCY_SPEEDTEST_PROVIDER)."""
    chosen = name or settings.speedtest_provider
    if chosen == "lighthouse":
        return LocalLighthouse(
            lighthouse_path=settings.lighthouse_path,
            chrome_path=settings.lighthouse_chrome_path,
            timeout=settings.pagespeed_timeout,
            private_targets=settings.speedtest_unsafe_allow_private_targets,
        )
    return PageSpeedInsights(
        api_base=settings.pagespeed_api_base,
        api_key=settings.pagespeed_api_key,
        timeout=settings.pagespeed_timeout,
    )
