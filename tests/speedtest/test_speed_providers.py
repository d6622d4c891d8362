"""The page-speed providers: PageSpeed Insights against the fake PageSpeed server over real HTTP
(every answer the fixtures record, and the fake's Google-like query checks), local Lighthouse
against a stand-in `lighthouse` command (arguments, timeouts, errors, one run per core) and
for real in Chromium against a page this test serves (through the egress proxy) and against one
that redirects to our network (refused), and the result parser under hypothesis."""

from __future__ import annotations

import asyncio
import copy
import http.server
import json
import math
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agency.modules.speedtest.service import speed_providers
from agency.modules.speedtest.service.speed_providers import (
    MSG_GENERIC,
    MSG_INVALID_RESPONSE,
    MSG_QUOTA,
    MSG_RUN_FAILED,
    MSG_UNREACHABLE,
    FieldMetric,
    LocalLighthouse,
    Opportunity,
    PageSpeedInsights,
    SpeedReport,
    SpeedTestFailed,
    parse_field_data,
    parse_lighthouse_result,
    parse_opportunities,
    parse_psi_response,
    provider_for,
    psi_error,
)
from agency.settings import Settings
from tests.conftest import free_port
from tests.fakes.pagespeed import (
    ERRORED_MESSAGE,
    FIXTURES,
    OOPS_MESSAGE,
    FakePageSpeed,
    run_fake_pagespeed,
    score_for,
    success_body,
)

ROOT = Path(__file__).resolve().parents[2]
RECORDED = json.loads((FIXTURES / "psi-v5-mobile-success.sitekit-excerpt.json").read_text())
LIGHTHOUSE = ROOT / "bench" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def psi() -> Iterator[FakePageSpeed]:
    with run_fake_pagespeed(api_key="psi-test-key", hang_delay=2.0) as fake:
        yield fake


@pytest.fixture(autouse=True)
def fresh(request: pytest.FixtureRequest) -> None:
    if "psi" in request.fixturenames:
        fake: FakePageSpeed = request.getfixturevalue("psi")
        fake.reset()
        fake.delay = 0


def half_up(value: float) -> int:
    return math.floor(value + 0.5)


def google(fake: FakePageSpeed, *, key: str = "", timeout: float = 5.0) -> PageSpeedInsights:
    return PageSpeedInsights(api_base=fake.base_url, api_key=key, timeout=timeout)


# ------------------------------------------------------------------- the recorded answer


def test_the_recorded_answer_reads_as_google_reported_it() -> None:
    report = parse_psi_response(RECORDED)
    assert report == SpeedReport(
        score=100,
        speed_index_ms=798,
        total_blocking_time_ms=90,
        largest_contentful_paint_ms=1100,
        cumulative_layout_shift=0.0,
        first_contentful_paint_ms=798,
        final_url="https://example.com/",
        provider="psi",
        lighthouse_version="6.0.0",
        field_data=[
            FieldMetric("LCP", 2600.0, "AVERAGE"),
            FieldMetric("INP", 295.0, "AVERAGE"),
            FieldMetric("CLS", 0.3, "SLOW"),  # Google sends CLS x 100 (30)
        ],
        field_overall="AVERAGE",
        opportunities=[],  # the excerpt keeps no opportunity audit
    )


def test_score_rounds_half_up_like_the_pages_did() -> None:
    lhr = copy.deepcopy(RECORDED["lighthouseResult"])
    for raw, shown in [(0.125, 13), (0.985, 99), (0.29, 29), (0.5, 50), (0.004, 0), (0.995, 100)]:
        lhr["categories"]["performance"]["score"] = raw
        assert parse_lighthouse_result(lhr, "psi").score == shown, raw
    lhr["audits"]["speed-index"]["numericValue"] = 1812.5
    assert parse_lighthouse_result(lhr, "psi").speed_index_ms == 1813


def test_opportunities_are_the_three_largest_failed_ones_in_plain_words() -> None:
    def opportunity(title: str, score: float | None, overall: float, lcp: float = 0) -> Any:
        return {
            "title": title,
            "score": score,
            "metricSavings": {"LCP": lcp, "FCP": 0, "CLS": 0.1},
            "details": {"type": "opportunity", "overallSavingsMs": overall},
        }

    audits = {
        "render-blocking-resources": opportunity("Eliminate render-blocking resources", 0, 900),
        "unused-javascript": opportunity("Reduce unused JavaScript", 0.5, 0, lcp=1200),
        "legacy-javascript": opportunity("Avoid serving `legacy` JavaScript", None, 300),
        "offscreen-images": opportunity("Defer offscreen images", 0.3, 120),
        "passed": opportunity("Enable text compression", 1, 5000),  # passed: not reported
        "nothing": opportunity("Preconnect", 0, 0),  # saves nothing
        "table": {"title": "DOM size", "score": 0, "details": {"type": "table"}},
        "no-title": {"score": 0, "details": {"type": "opportunity", "overallSavingsMs": 9999}},
    }
    assert parse_opportunities(audits) == [
        Opportunity("unused-javascript", "Reduce unused JavaScript", 1200),
        Opportunity("render-blocking-resources", "Eliminate render-blocking resources", 900),
        Opportunity("legacy-javascript", "Avoid serving legacy JavaScript", 300),
    ]


def test_field_data_is_optional() -> None:
    assert parse_field_data({"initial_url": "https://example.com/"}) == ([], None)
    assert parse_field_data(None) == ([], None)
    only_lcp = {
        "metrics": {
            "LARGEST_CONTENTFUL_PAINT_MS": {"percentile": 3100, "category": "AVERAGE"},
            "INTERACTION_TO_NEXT_PAINT": {"percentile": 90, "category": "QUICK"},  # not ours
            "FIRST_INPUT_DELAY_MS": {"percentile": 15, "category": "FAST"},  # not kept
        },
        "overall_category": "SLOW",
    }
    assert parse_field_data(only_lcp) == ([FieldMetric("LCP", 3100.0, "AVERAGE")], "SLOW")


# ---------------------------------------------------------- PageSpeed Insights over HTTP


@pytest.mark.parametrize(("host", "score"), [("fast.example", 95), ("slow.example", 45)])
@pytest.mark.parametrize("strategy", ["mobile", "desktop"])
async def test_psi_reads_the_fakes_answer(
    psi: FakePageSpeed, host: str, score: int, strategy: Any
) -> None:
    url = f"https://{host}/"
    report = await google(psi).run(url, strategy)
    sent = success_body(url, strategy, score)
    audits = sent["lighthouseResult"]["audits"]
    assert report.score == score
    assert report.provider == "psi"
    assert report.final_url == url
    assert report.speed_index_ms == half_up(audits["speed-index"]["numericValue"])
    assert report.total_blocking_time_ms == half_up(audits["total-blocking-time"]["numericValue"])
    lcp = audits["largest-contentful-paint"]["numericValue"]
    assert report.largest_contentful_paint_ms == half_up(lcp)
    assert report.first_contentful_paint_ms == half_up(
        audits["first-contentful-paint"]["numericValue"]
    )
    assert report.cumulative_layout_shift == pytest.approx(
        audits["cumulative-layout-shift"]["numericValue"]
    )
    assert [m.name for m in report.field_data] == ["LCP", "INP", "CLS"]
    if score < 90:
        assert [o.id for o in report.opportunities] == [
            "render-blocking-resources",
            "unused-javascript",
            "offscreen-images",
        ]
        assert report.opportunities[0].savings_ms > report.opportunities[1].savings_ms > 0
    else:
        assert report.opportunities == []
    [call] = psi.requests
    assert (call.url, call.strategy, call.categories, call.key) == (
        url,
        strategy,
        ["performance"],
        None,
    )


async def test_psi_sends_the_key_when_configured(psi: FakePageSpeed) -> None:
    report = await google(psi, key="psi-test-key").run("https://mid.example/", "mobile")
    assert report.score == 75
    assert psi.requests[-1].key == "psi-test-key"
    with pytest.raises(SpeedTestFailed) as wrong:
        await google(psi, key="not-the-key").run("https://mid.example/", "mobile")
    assert wrong.value.message == "API key not valid. Please pass a valid API key."


async def test_psi_without_field_data(psi: FakePageSpeed) -> None:
    report = await google(psi).run("https://nofield.example/", "mobile")
    assert (report.score, report.field_data, report.field_overall) == (88, [], None)


async def test_psi_other_hosts_score_from_the_host_alike_each_time(psi: FakePageSpeed) -> None:
    first = await google(psi).run("https://plumber-berlin.example/", "mobile")
    again = await google(psi).run("https://plumber-berlin.example/", "mobile")
    desktop = await google(psi).run("https://plumber-berlin.example/", "desktop")
    assert first.score == again.score == score_for("plumber-berlin.example", "mobile")
    assert desktop.score == score_for("plumber-berlin.example", "desktop") >= first.score
    assert 30 <= first.score <= 100
    named = await google(psi).run("https://score-62.example/", "mobile")
    assert named.score == 62


@pytest.mark.parametrize(
    ("host", "message", "quota", "retryable"),
    [
        ("down.example", MSG_UNREACHABLE, False, False),
        ("errored.example", MSG_UNREACHABLE, False, False),
        ("oops.example", OOPS_MESSAGE, False, False),
        ("badgateway.example", MSG_RUN_FAILED, False, True),
        ("quota.example", MSG_QUOTA, True, False),
        ("nocategory.example", MSG_INVALID_RESPONSE, False, False),
        ("garbage.example", MSG_INVALID_RESPONSE, False, False),
    ],
)
async def test_psi_errors_map_to_the_spec_messages(
    psi: FakePageSpeed, host: str, message: str, quota: bool, retryable: bool
) -> None:
    with pytest.raises(SpeedTestFailed) as failed:
        await google(psi).run(f"https://{host}/", "mobile")
    assert failed.value.message == message
    assert str(failed.value) == message
    assert (failed.value.quota, failed.value.retryable) == (quota, retryable)
    assert [c.host for c in psi.requests] == [host]


def test_spec_messages_are_word_for_word() -> None:
    assert MSG_UNREACHABLE == (
        "Unable to access the website. Please check if the domain is correct and the website "
        "is accessible."
    )
    assert MSG_RUN_FAILED == "Failed to run PageSpeed test."
    assert MSG_INVALID_RESPONSE == "Invalid response from PageSpeed API."
    assert MSG_GENERIC == "Failed to test website speed."
    assert "ERRORED_DOCUMENT_REQUEST" in ERRORED_MESSAGE


async def test_psi_timeout_and_network_errors_are_generic_and_retryable(
    psi: FakePageSpeed,
) -> None:
    started = time.monotonic()
    with pytest.raises(SpeedTestFailed) as slow:
        await google(psi, timeout=0.5).run("https://hang.example/", "mobile")
    assert time.monotonic() - started < 1.9  # did not wait for the answer (2 s)
    assert (slow.value.message, slow.value.retryable) == (MSG_GENERIC, True)
    closed = PageSpeedInsights(api_base=f"http://127.0.0.1:{free_port()}", timeout=2)
    with pytest.raises(SpeedTestFailed) as refused:
        await closed.run("https://fast.example/", "mobile")
    assert (refused.value.message, refused.value.retryable) == (MSG_GENERIC, True)
    # With a longer timeout the same host answers.
    assert (await google(psi, timeout=5).run("https://hang.example/", "mobile")).score > 0


async def test_the_fake_delays_every_answer_and_counts_them(psi: FakePageSpeed) -> None:
    psi.delay = 0.4
    started = time.monotonic()
    reports = await asyncio.gather(
        *(google(psi).run(f"https://site{i}.example/", "mobile") for i in range(5))
    )
    assert 0.4 <= time.monotonic() - started < 2.0  # concurrently, not one after another
    assert len(reports) == 5
    assert psi.max_in_flight == 5


async def test_the_fake_checks_its_query_like_google(psi: FakePageSpeed) -> None:
    endpoint = psi.base_url + "/pagespeedonline/v5/runPagespeed"
    async with httpx.AsyncClient() as client:

        async def status(**params: Any) -> tuple[int, Any]:
            response = await client.get(endpoint, params=params)
            return response.status_code, response.json()

        code, body = await status()
        assert code == 400 and body["error"]["errors"][0]["reason"] == "required"
        code, body = await status(url="fast.example")
        assert code == 400 and "Invalid value at 'url'" in body["error"]["message"]
        code, body = await status(url="https://fast.example/", strategy="fast")
        assert code == 400 and "Invalid value at 'strategy'" in body["error"]["message"]
        code, body = await status(url="https://fast.example/", category="speed")
        assert code == 400 and "Invalid value at 'category'" in body["error"]["message"]
        for strategy in ("MOBILE", "Desktop", "mobile"):
            code, body = await status(url="https://fast.example/", strategy=strategy)
            assert code == 200, strategy
            form_factor = body["lighthouseResult"]["configSettings"]["emulatedFormFactor"]
            assert form_factor == strategy.lower()
        code, body = await status(url="URL:HTTPS://fast.example/", category="PERFORMANCE")
        assert code == 200
        code, body = await status(url="https://fast.example/")  # Google's default: desktop
        assert body["lighthouseResult"]["configSettings"]["emulatedFormFactor"] == "desktop"
        code, body = await status(url="https://quota.example/")
        recorded = json.loads((FIXTURES / "psi-v5-error-429-quota-exceeded.json").read_text())
        assert (code, body) == (429, recorded)
        control = await client.get(psi.base_url + "/_fake/requests")
        assert [r["host"] for r in control.json()["requests"]][-1] == "quota.example"


def test_provider_for_follows_the_settings() -> None:
    settings = Settings(
        speedtest_provider="psi",
        pagespeed_api_key="k",
        pagespeed_api_base="http://127.0.0.1:9/",
        pagespeed_timeout=12,
        lighthouse_path="/opt/lh",
        lighthouse_chrome_path="/usr/bin/chromium",
    )
    chosen = provider_for(settings)
    assert chosen == PageSpeedInsights(api_base="http://127.0.0.1:9", api_key="k", timeout=12)
    local = provider_for(settings, "lighthouse")
    assert local == LocalLighthouse("/opt/lh", "/usr/bin/chromium", 12)
    assert provider_for(settings.model_copy(update={"speedtest_provider": "lighthouse"})) == local
    assert provider_for(Settings(), None).name == "psi"


# ------------------------------------------------------- local Lighthouse, a stand-in command

STAND_IN = """#!{python}
import json, os, signal, sys, time
from urllib.parse import urlsplit
args = sys.argv[1:]
log = os.environ["FAKE_LH_LOG"]
host = urlsplit(args[0]).hostname
with open(os.path.join(log, f"{{os.getpid()}}.json"), "w") as f:
    json.dump({{"argv": args, "chrome": os.environ.get("CHROME_PATH"), "start": time.time()}}, f)
lhr = json.load(open(os.environ["FAKE_LH_LHR"]))
if host == "slow.test":
    time.sleep(60)
if host == "stubborn.test":
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    time.sleep(60)
if host == "busy.test":
    time.sleep(0.4)
    open(os.path.join(log, f"{{os.getpid()}}.end"), "w").write(str(time.time()))
if host in ("down.test", "nohtml.test"):
    code = "FAILED_DOCUMENT_REQUEST" if host == "down.test" else "NOT_HTML"
    lhr["categories"]["performance"]["score"] = None
    lhr["runtimeError"] = {{"code": code, "message": f"{{code}}: the page said no."}}
    print(json.dumps(lhr))
    sys.exit(1)
if host == "crash.test":
    print("Error: Chrome could not start", file=sys.stderr)
    sys.exit(2)
if host == "garbage.test":
    print("not json")
    sys.exit(0)
lhr["finalDisplayedUrl"] = args[0]
print(json.dumps(lhr))
"""


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A `lighthouse` command that answers like Lighthouse 12 from the recorded result."""
    script = tmp_path / "lighthouse"
    script.write_text(STAND_IN.format(python=sys.executable))
    script.chmod(0o755)
    log = tmp_path / "log"
    log.mkdir()
    lhr = tmp_path / "lhr.json"
    lhr.write_text(json.dumps(RECORDED["lighthouseResult"]))
    monkeypatch.setenv("FAKE_LH_LOG", str(log))
    monkeypatch.setenv("FAKE_LH_LHR", str(lhr))
    return script, log


def runs(log: Path) -> list[dict[str, Any]]:
    found = []
    for path in sorted(log.glob("*.json")):
        run = json.loads(path.read_text())
        run["pid"] = int(path.stem)
        end = log / f"{path.stem}.end"
        run["end"] = float(end.read_text()) if end.exists() else None
        found.append(run)
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie has exited too.
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "zombie" not in status.read_text()


@pytest.mark.parametrize("strategy", ["mobile", "desktop"])
async def test_lighthouse_runs_the_command_and_reads_its_report(
    stand_in: tuple[Path, Path], strategy: Any
) -> None:
    script, log = stand_in
    provider = LocalLighthouse(str(script), chrome_path="/opt/chromium", timeout=20)
    report = await provider.run("https://ok.test/", strategy)
    assert (report.score, report.speed_index_ms, report.total_blocking_time_ms) == (100, 798, 90)
    assert (report.provider, report.final_url, report.field_data) == (
        "lighthouse",
        "https://ok.test/",
        [],
    )
    [run] = runs(log)
    assert run["chrome"] == "/opt/chromium"
    argv = run["argv"]
    assert argv[0] == "https://ok.test/"
    assert {"--output=json", "--output-path=stdout", "--only-categories=performance"} <= set(argv)
    flags = next(a for a in argv if a.startswith("--chrome-flags="))
    assert "--headless=new" in flags and "--no-sandbox" in flags
    assert ("--preset=desktop" in argv) == (strategy == "desktop")


async def test_lighthouse_without_chrome_path_leaves_chrome_path_alone(
    stand_in: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    script, log = stand_in
    monkeypatch.delenv("CHROME_PATH", raising=False)
    await LocalLighthouse(str(script), timeout=20).run("https://ok.test/", "mobile")
    assert runs(log)[0]["chrome"] is None


@pytest.mark.parametrize(
    ("host", "message"),
    [
        ("down.test", MSG_UNREACHABLE),
        ("nohtml.test", "NOT_HTML: the page said no."),
        ("crash.test", MSG_RUN_FAILED),
        ("garbage.test", MSG_INVALID_RESPONSE),
    ],
)
async def test_lighthouse_failures(stand_in: tuple[Path, Path], host: str, message: str) -> None:
    script, _ = stand_in
    with pytest.raises(SpeedTestFailed) as failed:
        await LocalLighthouse(str(script), timeout=20).run(f"https://{host}/", "mobile")
    assert failed.value.message == message


async def test_lighthouse_missing_command(tmp_path: Path) -> None:
    provider = LocalLighthouse(str(tmp_path / "no-such-lighthouse"), timeout=5)
    with pytest.raises(SpeedTestFailed) as failed:
        await provider.run("https://ok.test/", "mobile")
    assert failed.value.message == MSG_GENERIC


@pytest.mark.parametrize("host", ["slow.test", "stubborn.test"])
async def test_lighthouse_past_its_timeout_is_stopped(
    stand_in: tuple[Path, Path], host: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    script, log = stand_in
    monkeypatch.setattr(speed_providers, "STOP_GRACE", 0.5)
    started = time.monotonic()
    with pytest.raises(SpeedTestFailed) as failed:
        await LocalLighthouse(str(script), timeout=1.0).run(f"https://{host}/", "mobile")
    assert time.monotonic() - started < 4
    assert (failed.value.message, failed.value.retryable) == (MSG_GENERIC, True)
    [run] = runs(log)
    assert not alive(run["pid"])  # SIGINT, or SIGKILL when it ignores SIGINT


async def test_lighthouse_runs_one_per_cpu_core(stand_in: tuple[Path, Path]) -> None:
    script, log = stand_in
    cores = os.cpu_count() or 1
    provider = LocalLighthouse(str(script), timeout=30)
    await asyncio.gather(*(provider.run("https://busy.test/", "mobile") for _ in range(cores + 2)))
    done = runs(log)
    assert len(done) == cores + 2
    # The most runs alive at any one moment.
    most = max(sum(1 for r in done if r["start"] <= t["start"] < r["end"]) for t in done)
    assert most == cores


# ------------------------------------------------------- local Lighthouse, once for real


class _Page(http.server.BaseHTTPRequestHandler):
    BODY = (
        b"<!doctype html><html lang=en><head><meta charset=utf-8>"
        b'<meta name=viewport content="width=device-width,initial-scale=1">'
        b"<title>Speed test page</title></head><body><h1>A small page</h1>"
        b"<p>Served by the test on 127.0.0.1.</p></body></html>"
    )

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(self.BODY)))
        self.end_headers()
        self.wfile.write(self.BODY)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.mark.slow  # real Lighthouse and Chromium
async def test_real_lighthouse_in_chromium_against_our_page() -> None:
    assert LIGHTHOUSE.exists(), (
        "Lighthouse is not installed: cd bench/lighthouse && npm ci (scripts/test does it)"
    )
    assert Path(CHROMIUM).exists(), "Chromium is not installed: apt-get install chromium"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        started = time.monotonic()
        # Through the egress proxy, told that loopback counts as public here.
        provider = LocalLighthouse(
            str(LIGHTHOUSE), CHROMIUM, timeout=60, allowed=lambda ip: ip.is_loopback
        )
        report = await provider.run(url, "mobile")
        seconds = time.monotonic() - started
    finally:
        server.shutdown()
        server.server_close()
    assert report.provider == "lighthouse"
    assert report.final_url == url
    assert report.lighthouse_version.startswith("12.")
    assert 50 <= report.score <= 100  # a tiny page on loopback
    assert report.speed_index_ms > 0 and report.first_contentful_paint_ms
    assert report.largest_contentful_paint_ms and report.cumulative_layout_shift is not None
    assert report.total_blocking_time_ms >= 0
    assert seconds < 30


class _Redirect(http.server.BaseHTTPRequestHandler):
    """On 127.0.0.2 ("public" by the test's rule): redirects to `target` (on 127.0.0.1)."""

    target = ""

    def do_GET(self) -> None:
        self.send_response(302)
        self.send_header("Location", self.target)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Private(_Page):
    """On 127.0.0.1 (private): records every request it receives."""

    seen: list[str] = []

    def do_GET(self) -> None:
        self.seen.append(self.path)
        super().do_GET()


def test_lighthouse_uses_the_egress_proxy_unless_private_targets_are_allowed() -> None:
    guarded = LocalLighthouse("lighthouse").argv("https://a.test/", "mobile", "http://127.0.0.1:9")
    flags = next(a for a in guarded if a.startswith("--chrome-flags="))
    for flag in (
        "--proxy-server=http://127.0.0.1:9",
        "--proxy-bypass-list=<-loopback>",
        "--disable-quic",
    ):
        assert flag in flags.split()
    bare = LocalLighthouse("lighthouse").argv("https://a.test/", "mobile")
    assert "--proxy-server" not in next(a for a in bare if a.startswith("--chrome-flags="))
    unsafe = Settings(speedtest_unsafe_allow_private_targets=True)
    assert provider_for(unsafe, "lighthouse") == LocalLighthouse(private_targets=True, timeout=60)
    assert provider_for(Settings(), "lighthouse") == LocalLighthouse(timeout=60)


@pytest.mark.slow  # real Lighthouse and Chromium
async def test_real_lighthouse_never_follows_a_redirect_to_our_network() -> None:
    assert LIGHTHOUSE.exists() and Path(CHROMIUM).exists()
    private = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Private)
    _Private.seen = []
    public = http.server.ThreadingHTTPServer(("127.0.0.2", 0), _Redirect)
    _Redirect.target = f"http://127.0.0.1:{private.server_address[1]}/secret"
    servers = [private, public]
    for server in servers:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.2:{public.server_address[1]}/"
    provider = LocalLighthouse(
        str(LIGHTHOUSE),
        CHROMIUM,
        timeout=60,
        allowed=lambda ip: str(ip) == "127.0.0.2",  # 127.0.0.1 stays private
    )
    try:
        started = time.monotonic()
        with pytest.raises(SpeedTestFailed) as failed:
            await provider.run(url, "mobile")
        seconds = time.monotonic() - started
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
    assert _Private.seen == []
    assert failed.value.message == MSG_UNREACHABLE
    assert seconds < 30


# ------------------------------------------------------------------------ the parser, fuzzed

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=24,
)
PATHS = [
    ("categories",),
    ("categories", "performance"),
    ("categories", "performance", "score"),
    ("audits",),
    ("audits", "speed-index"),
    ("audits", "speed-index", "numericValue"),
    ("audits", "total-blocking-time", "numericValue"),
    ("audits", "largest-contentful-paint"),
    ("audits", "largest-contentful-paint", "numericValue"),
    ("audits", "cumulative-layout-shift", "numericValue"),
    ("audits", "first-contentful-paint", "numericValue"),
    ("audits", "dom-size", "details"),
    ("audits", "dom-size", "details", "type"),
    ("runtimeError",),
    ("runtimeError", "code"),
    ("finalUrl",),
    ("lighthouseVersion",),
]


def lhr_with(score: float, si: float, tbt: float) -> Any:
    lhr = copy.deepcopy(RECORDED["lighthouseResult"])
    lhr["categories"]["performance"]["score"] = score
    lhr["audits"]["speed-index"]["numericValue"] = si
    lhr["audits"]["total-blocking-time"]["numericValue"] = tbt
    return lhr


@given(
    st.floats(0, 1),
    st.floats(0, 1e7, allow_nan=False),
    st.floats(0, 1e7, allow_nan=False),
    st.sampled_from(["psi", "lighthouse"]),
)
def test_any_score_reads_as_an_integer_from_0_to_100(
    score: float, si: float, tbt: float, provider: Any
) -> None:
    report = parse_lighthouse_result(lhr_with(score, si, tbt), provider)
    assert isinstance(report.score, int) and 0 <= report.score <= 100
    assert report.score == math.floor(score * 100 + 0.5)
    assert abs(report.score - score * 100) <= 0.5 + 1e-9
    assert report.speed_index_ms == math.floor(si + 0.5)
    assert report.total_blocking_time_ms == math.floor(tbt + 0.5)
    assert report.provider == provider


def check(report: SpeedReport) -> None:
    assert isinstance(report.score, int) and 0 <= report.score <= 100
    assert isinstance(report.speed_index_ms, int) and report.speed_index_ms >= 0
    assert isinstance(report.total_blocking_time_ms, int) and report.total_blocking_time_ms >= 0
    for value in (report.largest_contentful_paint_ms, report.first_contentful_paint_ms):
        assert value is None or (isinstance(value, int) and value >= 0)
    assert report.cumulative_layout_shift is None or report.cumulative_layout_shift >= 0
    assert isinstance(report.final_url, str) and isinstance(report.lighthouse_version, str)
    assert len(report.opportunities) <= 3
    assert all(o.savings_ms > 0 and o.title for o in report.opportunities)


@given(st.lists(st.tuples(st.sampled_from(PATHS), st.one_of(st.just(KeyError), JSON)), max_size=5))
def test_damaged_results_read_or_fail_with_a_message_never_crash(
    damage: list[tuple[tuple[str, ...], Any]],
) -> None:
    lhr = copy.deepcopy(RECORDED["lighthouseResult"])
    for path, value in damage:
        node = lhr
        for key in path[:-1]:
            if not isinstance(node, dict):
                break
            node = node.setdefault(key, {})
        else:
            if isinstance(node, dict):
                if value is KeyError:
                    node.pop(path[-1], None)
                else:
                    node[path[-1]] = value
    try:
        report = parse_lighthouse_result(lhr, "psi")
    except SpeedTestFailed as failed:
        assert failed.message.strip() and len(failed.message) <= 500
        return
    check(report)


@given(JSON)
def test_any_json_reads_or_is_an_invalid_response(value: Any) -> None:
    try:
        check(parse_lighthouse_result(value, "lighthouse"))
    except SpeedTestFailed as failed:
        assert failed.message.strip()
    try:
        parse_psi_response(value)
    except SpeedTestFailed as failed:
        assert failed.message.strip()
    metrics, overall = parse_field_data(value)
    assert all(m.category in ("FAST", "AVERAGE", "SLOW") for m in metrics)
    assert overall in (None, "FAST", "AVERAGE", "SLOW")


@given(
    st.integers(300, 599),
    st.one_of(JSON, st.builds(lambda m: {"error": {"message": m}}, st.text())),
)
def test_any_error_answer_has_a_message(status: int, body: Any) -> None:
    failure = psi_error(status, body)
    assert failure.message.strip() and len(failure.message) <= 500
    assert failure.quota == (status == 429)
    if status == 429:
        assert failure.message == MSG_QUOTA


@given(st.text(max_size=80), st.text(max_size=80))
def test_a_document_request_failure_anywhere_in_the_message_is_unreachable(
    before: str, after: str
) -> None:
    body = {"error": {"code": 500, "message": f"{before}FAILED_DOCUMENT_REQUEST{after}"}}
    assert psi_error(500, body).message == MSG_UNREACHABLE
