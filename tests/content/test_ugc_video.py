"""/ugc-force's sample video is configuration: a self-hosted video and its poster by URL path
(`ugc_sample_video`, `ugc_sample_poster`), handed to the web UI in the site details; none
configured means the page's phone frame."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from agency.modules.content.service.pages import SiteDetails
from agency.modules.content.settings import POSTER_TYPES, VIDEO_TYPES, media_path
from tests.conftest import make_settings


def client_config(tmp_path: Path, **settings: str) -> dict[str, object]:
    details = SiteDetails.from_settings(make_settings(tmp_path, "sqlite://:memory:", **settings))
    config: dict[str, object] = json.loads(details.client_json())
    return config


def test_the_web_ui_gets_the_video_and_its_poster(tmp_path: Path) -> None:
    config = client_config(
        tmp_path,
        ugc_sample_video="/media/ugc-sample.mp4",
        ugc_sample_poster="/media/ugc-sample.webp",
        ugc_sample_captions="/media/ugc-sample.vtt",
    )
    assert config["ugcSampleVideo"] == {
        "src": "/media/ugc-sample.mp4",
        "poster": "/media/ugc-sample.webp",
        "captions": "/media/ugc-sample.vtt",
    }


def test_without_a_video_the_page_shows_its_phone_frame(tmp_path: Path) -> None:
    assert client_config(tmp_path)["ugcSampleVideo"] is None


@pytest.mark.parametrize(
    ("video", "poster", "message"),
    [
        ("https://cdn.example/ugc.mp4", "/media/p.webp", "a path on this site"),
        ("//cdn.example/ugc.mp4", "/media/p.webp", "a path on this site"),
        ("/media/../secret.mp4", "/media/p.webp", "a path on this site"),
        ('/media/"a.mp4', "/media/p.webp", "a path on this site"),
        ("/media/ugc.mov", "/media/p.webp", "must end in .mp4, .webm"),
        ("/media/ugc.mp4", "/media/p.gif", "must end in .jpg"),
        ("/media/ugc.mp4", "", "needs ugc_sample_poster"),
    ],
)
def test_a_wrong_setting_is_refused_at_start(
    tmp_path: Path, video: str, poster: str, message: str
) -> None:
    with pytest.raises(ValidationError, match=message.replace(".", r"\.")):
        make_settings(
            tmp_path, "sqlite://:memory:", ugc_sample_video=video, ugc_sample_poster=poster
        )


@given(value=st.text(max_size=60))
def test_a_media_path_is_always_a_file_path_on_this_site(value: str) -> None:
    try:
        path = media_path(value, VIDEO_TYPES + POSTER_TYPES)
    except ValueError:
        return
    if path == "":
        assert value.strip() == ""
        return
    assert path.startswith("/") and not path.startswith("//")
    assert ".." not in path.split("/") and "." not in path.split("/")
    assert not any(c in path for c in "\"'<> \\?#:")
    assert path.lower().endswith(VIDEO_TYPES + POSTER_TYPES)
