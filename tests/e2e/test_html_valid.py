"""Every public page is valid HTML: html-validate (webui's dev dependency) with the standard,
document and accessibility rules and our `agency/aria-allowed-role` (an ARIA role its element
does not allow is an error), run by webui/scripts/validate-html.mjs over each prerendered page
as the real server sends it (its tokens and Markdown pages filled in) and the 404 page, and
over the same pages as Chromium shows them once the client has taken over."""

from __future__ import annotations

import json
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from agency.core.paths import web_dir
from tests.e2e.conftest import LiveServer

WEBUI = Path(__file__).resolve().parents[2] / "webui"
VALIDATOR = WEBUI / "scripts" / "validate-html.mjs"


def validate(*files: Path) -> list[dict[str, Any]]:
    """html-validate's problems with the given files (none: an empty list)."""
    run = subprocess.run(
        ["node", str(VALIDATOR), "--json", *map(str, files)],
        cwd=WEBUI,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode in (0, 1), run.stderr
    report: dict[str, Any] = json.loads(run.stdout)
    assert report["files"] == len(files)
    errors: list[dict[str, Any]] = report["errors"]
    return errors


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return str(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:  # the 404 page is a page too
        return str(error.read().decode("utf-8"))


def test_the_checker_refuses_a_role_its_element_does_not_allow(tmp_path: Path) -> None:
    page = tmp_path / "roles.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><title>Roles</title></head><body><main>'
        "<h1>Roles</h1>"
        '<ul><li role="status">Saved.</li></ul>'
        '<article role="group" aria-label="Offer">An offer</article>'
        '<div role="group" aria-label="Fine">A div may be a group</div>'
        "</main></body></html>",
        encoding="utf-8",
    )
    problems = [(e["rule"], e["message"]) for e in validate(page)]
    assert problems == [
        ("agency/aria-allowed-role", 'Role "status" is not allowed on <li>'),
        ("agency/aria-allowed-role", 'Role "group" is not allowed on <article>'),
    ]


def test_every_public_page_is_valid_html(live_server: LiveServer, tmp_path: Path) -> None:
    routes = json.loads((web_dir() / "routes.json").read_text(encoding="utf-8"))
    paths: list[str] = [*routes["prerendered"], "/no-such-page"]
    files = []
    for number, path in enumerate(paths):
        file = tmp_path / f"{number:03d}.html"
        file.write_text(fetch(live_server.url + path), encoding="utf-8")
        files.append(file)
    problems = [
        f"{paths[int(Path(e['file']).stem)]}:{e['line']}:{e['column']} {e['rule']}: "
        f"{e['message']} ({e['selector']})"
        for e in validate(*files)
    ]
    assert problems == [], "\n".join(problems)


def test_every_public_page_is_valid_html_once_the_client_took_over(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    routes = json.loads((web_dir() / "routes.json").read_text(encoding="utf-8"))
    paths: list[str] = [*routes["prerendered"], "/no-such-page"]
    files = []
    for number, path in enumerate(paths):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        file = tmp_path / f"{number:03d}.html"
        file.write_text(page.content(), encoding="utf-8")
        files.append(file)
    problems = [
        f"{paths[int(Path(e['file']).stem)]}:{e['line']}:{e['column']} {e['rule']}: "
        f"{e['message']} ({e['selector']})"
        for e in validate(*files)
    ]
    assert problems == [], "\n".join(problems)
