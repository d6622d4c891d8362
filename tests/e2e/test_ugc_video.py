"""/ugc-force's sample video: configured, it plays in the hero's phone frame and nothing of it
but the poster loads until the visitor plays it; not configured, the frame shows its still
mock-up. The video and poster are real files in the server's `<data_dir>/media/` (copies of the
build's small content-engine loop and its poster), served by the server at `/media/<name>`."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Request, Response, expect

from tests.e2e.conftest import ConsoleLog, LiveServer, running_server
from tests.fakes.smtp import SmtpServer

# Names the build does not have: only the data directory's media folder answers them.
VIDEO = "/media/ugc-sample.webm"
POSTER = "/media/ugc-sample.webp"
BUILD_MEDIA = Path(__file__).resolve().parents[2] / "webui" / "public" / "media"


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
        media = server.workdir / "data" / "media"
        media.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(BUILD_MEDIA / "content-engine-loop.webm", media / "ugc-sample.webm")
        shutil.copyfile(BUILD_MEDIA / "content-engine-poster.webp", media / "ugc-sample.webp")
        yield server


def test_the_sample_video_loads_only_when_played(
    page: Page, video_server: LiveServer, console: ConsoleLog
) -> None:
    requested: list[str] = []
    answers: dict[str, Response] = {}
    page.on("request", lambda request: requested.append(request.url))
    page.on("response", lambda response: answers.setdefault(response.url, response))
    page.goto(video_server.url + "/ugc-force")
    page.wait_for_load_state("networkidle")
    video = page.get_by_label("Sample UGC video")
    expect(video).to_be_visible()
    expect(video).to_have_attribute("preload", "none")
    expect(video).to_have_attribute("poster", POSTER)
    assert any(url.endswith(POSTER) for url in requested), requested
    assert not any(url.endswith(VIDEO) for url in requested), requested
    poster = answers[video_server.url + POSTER]
    assert poster.status == 200 and poster.headers["content-type"] == "image/webp"
    page.screenshot(path="/tmp/agency-ugc-video-1280.png")

    # Play, as the visitor's click on the native play control does: now the file loads.
    with page.expect_request(lambda request: request.url.endswith(VIDEO)) as played:
        video.evaluate("video => video.play().catch(() => {})")
    first: Request = played.value
    assert first.url == video_server.url + VIDEO
    expect(video).to_have_js_property("paused", False)
    # It really plays: the server answered the player's range request and time runs.
    page.wait_for_function(
        "video => video.readyState >= 2 && video.currentTime > 0.2 && !video.error",
        arg=video.element_handle(),
        timeout=10_000,
    )
    answer = first.response()
    assert answer is not None and answer.status in (200, 206)
    assert answer.headers["content-type"] == "video/webm"
    if answer.status == 206:
        assert answer.headers["content-range"].startswith("bytes 0-")
    assert console.problems == []


def test_without_a_video_the_phone_frame_shows(
    page: Page, live_server: LiveServer, console: ConsoleLog
) -> None:
    page.goto(live_server.url + "/ugc-force")
    page.wait_for_load_state("networkidle")
    expect(page.locator(".phone-mock__screen")).to_be_visible()
    expect(page.locator("video")).to_have_count(0)
    assert console.problems == []
