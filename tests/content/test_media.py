"""`/media/<name>`: the files of the data directory's `media/` folder (the /ugc-force sample
video, its poster and captions), with their types, Range requests for the video, caching
headers and revalidation; nothing else of the data directory, no hidden file, no other type."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from agency.core.settings import Settings
from agency.modules.content.service import media

VIDEO = bytes(range(256)) * 64  # 16 kB standing in for an MP4


def put(settings: Settings, name: str, data: bytes) -> Path:
    folder = settings.data_dir / media.FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(data)
    return path


async def test_a_video_answers_range_requests_with_its_type_and_caching(
    app_settings: Settings, web: Any
) -> None:
    put(app_settings, "ugc-sample.mp4", VIDEO)
    whole = await web.get("/media/ugc-sample.mp4")
    assert whole.status_code == 200
    assert whole.content == VIDEO
    assert whole.headers["content-type"] == "video/mp4"
    assert whole.headers["cache-control"] == "public, max-age=3600"
    assert whole.headers["etag"] and whole.headers["last-modified"]
    assert "content-encoding" not in whole.headers

    part = await web.get("/media/ugc-sample.mp4", headers={"Range": "bytes=100-1123"})
    assert part.status_code == 206
    assert part.content == VIDEO[100:1124]
    assert part.headers["content-range"] == f"bytes 100-1123/{len(VIDEO)}"
    assert part.headers["accept-ranges"] == "bytes"
    assert part.headers["content-type"] == "video/mp4"

    tail = await web.get("/media/ugc-sample.mp4", headers={"Range": "bytes=-10"})
    assert tail.status_code == 206 and tail.content == VIDEO[-10:]
    beyond = await web.get("/media/ugc-sample.mp4", headers={"Range": f"bytes={len(VIDEO)}-"})
    assert beyond.status_code == 416

    etag = whole.headers["etag"]
    same = await web.get("/media/ugc-sample.mp4", headers={"If-None-Match": etag})
    assert same.status_code == 304 and same.content == b""
    since = whole.headers["last-modified"]
    unchanged = await web.get("/media/ugc-sample.mp4", headers={"If-Modified-Since": since})
    assert unchanged.status_code == 304
    head = await web.head("/media/ugc-sample.mp4")
    assert head.status_code == 200 and head.headers["content-length"] == str(len(VIDEO))


async def test_each_allowed_type_is_served_as_what_it_is(app_settings: Settings, web: Any) -> None:
    expected = {
        "clip.webm": "video/webm",
        "poster.jpg": "image/jpeg",
        "poster.JPEG": "image/jpeg",
        "poster.png": "image/png",
        "poster.webp": "image/webp",
        "poster.avif": "image/avif",
        "captions.vtt": "text/vtt; charset=utf-8",
    }
    for name in expected:
        put(app_settings, name, b"WEBVTT\n\n" if name.endswith(".vtt") else b"\x00" * 64)
    for name, kind in expected.items():
        answer = await web.get(f"/media/{name}")
        assert answer.status_code == 200, name
        assert answer.headers["content-type"] == kind, name


async def test_other_names_types_and_places_are_not_found(app_settings: Settings, web: Any) -> None:
    put(app_settings, "notes.txt", b"private")
    put(app_settings, "page.html", b"<script>alert(1)</script>")
    put(app_settings, "run.svg", b"<svg onload='alert(1)'/>")
    put(app_settings, ".hidden.mp4", VIDEO)
    put(app_settings, "noextension", VIDEO)
    (app_settings.data_dir / "secret.mp4").write_bytes(VIDEO)  # beside media/, not in it
    (app_settings.data_dir / media.FOLDER / "sub").mkdir()
    put(app_settings, "sub/inner.mp4", VIDEO)
    (app_settings.data_dir / media.FOLDER / "out.mp4").symlink_to(
        app_settings.data_dir / "secret.mp4"
    )
    (app_settings.data_dir / media.FOLDER / "folder.mp4").mkdir()
    for path in (
        "/media/notes.txt",
        "/media/page.html",
        "/media/run.svg",
        "/media/.hidden.mp4",
        "/media/noextension",
        "/media/missing.mp4",
        "/media/..%2Fsecret.mp4",
        "/media/%2E%2E/secret.mp4",
        "/media/../secret.mp4",
        "/media/sub/inner.mp4",
        "/media/sub%2Finner.mp4",
        "/media/out.mp4",
        "/media/folder.mp4",
        "/media/..%2Fagency.db",
    ):
        answer = await web.get(path)
        assert answer.status_code == 404, path
        assert answer.content not in (VIDEO, b"private"), path


async def test_without_a_media_folder_every_name_is_not_found(web: Any) -> None:
    assert (await web.get("/media/ugc-sample.mp4")).status_code == 404


@given(st.text(min_size=1, max_size=60))
def test_a_name_never_leads_out_of_the_folder(tmp_path_factory: Any, name: str) -> None:
    root = tmp_path_factory.mktemp("media")
    folder = root / media.FOLDER
    folder.mkdir()
    (folder / "ok.mp4").write_bytes(b"x")
    (root / "secret.mp4").write_bytes(b"x")
    found = media.public_file(folder, name)
    if found is not None:
        path, kind = found
        assert path.parent == folder.resolve()
        assert not path.name.startswith(".")
        assert kind in media.TYPES.values()
        assert name == "ok.mp4"
