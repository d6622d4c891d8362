"""/ugc-force's sample video: configured, it plays in the hero's phone frame and nothing of it
but the poster loads until the visitor plays it; not configured, the frame shows its still
mock-up. (The test video is the build's small content-engine loop.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, Request, expect

from tests.e2e.conftest import ConsoleLog, LiveServer, running_server
from tests.fakes.smtp import SmtpServer

VIDEO = "/media/content-engine-loop.webm"
POSTER = "/media/content-engine-poster.webp"


@pytest.fixture(scope="module")
def video_server(
    tmp_path_factory: pytest.TempPathFactory, smtp_server: SmtpServer
) -> Iterator[LiveServer]:
    with running_server(
        tmp_path_factory,
        smtp_server,
        stripe_sync=False,
        UGC_SAMPLE_VIDEO=VIDEO,
        UGC_SAMPLE_POSTER=POSTER,
    ) as server:
        yield server


def test_the_sample_video_loads_only_when_played(
    page: Page, video_server: LiveServer, console: ConsoleLog
) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(video_server.url + "/ugc-force")
    page.wait_for_load_state("networkidle")
    video = page.get_by_label("Sample UGC video")
    expect(video).to_be_visible()
    expect(video).to_have_attribute("preload", "none")
    expect(video).to_have_attribute("poster", POSTER)
    assert any(url.endswith(POSTER) for url in requested), requested
    assert not any(url.endswith(VIDEO) for url in requested), requested
    page.screenshot(path="/tmp/agency-ugc-video-1280.png")

    # Play, as the visitor's click on the native play control does: now the file loads.
    with page.expect_request(lambda request: request.url.endswith(VIDEO)) as played:
        video.evaluate("video => video.play().catch(() => {})")
    first: Request = played.value
    assert first.url == video_server.url + VIDEO
    expect(video).to_have_js_property("paused", False)
    assert console.problems == []


def test_without_a_video_the_phone_frame_shows(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + "/ugc-force")
    page.wait_for_load_state("networkidle")
    expect(page.locator(".phone-mock__screen")).to_be_visible()
    expect(page.locator("video")).to_have_count(0)
    assert console.problems == []
