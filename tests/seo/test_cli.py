"""`agency articles ...` on a fresh SQLite data directory, with the AI on the fake OpenAI
server: in this process through Typer's CliRunner (a subprocess costs seconds per command),
and once as a user runs it."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agency.cli import app
from tests.conftest import run_agency
from tests.fakes.openai_server import DEFAULT_API_KEY, FakeOpenAI, Outcome


class Ran:
    def __init__(self, stdout: str, stderr: str) -> None:
        self.stdout = stdout
        self.stderr = stderr


def test_articles_commands(
    tmp_path: Path, fake_ai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    for key in [k for k in os.environ if k.startswith("AGENCY_")]:
        monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    env = {
        "AGENCY_AI_API_KEY": DEFAULT_API_KEY,
        "AGENCY_AI_BASE_URL": fake_ai.api_base,
        "AGENCY_AI_MAX_RETRIES": "0",
        "COLUMNS": "200",
    }
    runner = CliRunner()

    def agency(*args: str, code: int = 0) -> Ran:
        result = runner.invoke(app, ["articles", *args], env=env)
        assert result.exit_code == code, (args, result.output, result.exception)
        return Ran(result.stdout, result.stderr)

    ideas = agency("ideas", "websites for dentists")
    for n in (1, 2, 3):
        assert f"Idea {n}: faster websites for small businesses" in ideas.stdout
    assert "websites for dentists" in fake_ai.requests[-1].text()
    as_json = json.loads(agency("ideas", "dentists", "--json").stdout)
    assert len(as_json) == 3 and set(as_json[0]) == {"title", "description", "keywords", "outline"}

    generated = agency("generate", "Faster sites", "-k", "speed", "-o", "Why it matters")
    assert "Saved the draft" in generated.stdout
    assert "/blog/faster-websites-for-small-businesses" in generated.stdout
    prompt = fake_ai.requests[-1].text()
    assert "Title: Faster sites" in prompt and "- Why it matters" in prompt

    page = tmp_path / "guide.md"
    page.write_text(
        "---\ntitle: A Guide\ndescription: Read me.\nkeywords: [a, b]\n---\n"
        "Hello **world**.\n\n<script>alert(1)</script>\n"
    )
    imported = agency("import", str(page))
    assert "Imported as a draft" in imported.stdout and "/blog/a-guide" in imported.stdout

    published = agency("publish", "a-guide")
    assert "Published" in published.stdout
    again = agency("publish", "a-guide", code=1)
    assert "This article is already published." in again.stderr
    assert "Archived" in agency("archive", "a-guide").stdout
    assert "Moved back to draft" in agency("draft", "a-guide").stdout
    missing = agency("publish", "no-such-article", code=1)
    assert "No article has the slug 'no-such-article'." in missing.stderr

    listed = agency("list")
    assert "2 article(s)" in listed.stdout and "a-guide" in listed.stdout
    assert "0 article(s)" in agency("list", "--status", "published").stdout
    assert "1 article(s)" in agency("list", "-q", "GUIDE").stdout

    with sqlite3.connect(tmp_path / "data" / "agency.db") as database:
        content, keywords, created_by, body_format, source = database.execute(
            "SELECT content, keywords, created_by, body_format, source FROM seo_articles"
            " WHERE slug = 'a-guide'"
        ).fetchone()
    assert "<strong>world</strong>" in content and "<script" not in content
    # Imported as Markdown: the editor opens it as written.
    assert body_format == "markdown" and "**world**" in source
    assert json.loads(keywords) == ["a", "b"] and created_by is None

    # The AI's failures are a red message and exit code 1.
    fake_ai.push(Outcome.quota())
    failed = agency("ideas", "t", code=1)
    assert "quota is used up" in failed.stderr
    fake_ai.push(Outcome.text("not json"))
    failed = agency("generate", "Broken", code=1)
    assert "The AI's answer was not valid JSON." in failed.stderr
    assert "2 article(s)" in agency("list").stdout  # nothing saved

    # Input it cannot use: exit code 2.
    assert "Please enter a topic" in agency("ideas", "  ", code=2).stderr
    (tmp_path / "untitled.md").write_text("no title here")
    assert "The file has no title" in agency("import", str(tmp_path / "untitled.md"), code=2).stderr
    assert "Cannot read" in agency("import", str(tmp_path / "missing.md"), code=2).stderr


@pytest.mark.slow  # runs the `agency` command in a subprocess
def test_without_an_ai_key(tmp_path: Path) -> None:
    result = run_agency(tmp_path, "articles", "ideas", "dentists")
    assert result.returncode == 1
    assert "AI is not configured (set AGENCY_AI_API_KEY)" in result.stderr
