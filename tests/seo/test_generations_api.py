"""AI ideas and articles through the API, as jobs, against the fake OpenAI server over HTTP:
valid, partial and invalid answers, the provider's refusals, a slow provider, no AI key, the
per-admin limit, and the job's run-once rules (both databases)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from agency.app import create_app
from agency.core import jobs
from agency.core.web import settings_of
from agency.modules.seo.models import Generation
from agency.modules.seo.service import generations
from agency.modules.seo.settings import SeoSettings
from tests.conftest import make_settings
from tests.fakes.openai_server import FakeOpenAI, Outcome
from tests.helpers.http import ADMIN_EMAIL, call, error_message, signed_up
from tests.seo.conftest import ai_settings

IDEAS = {
    "ideas": [
        {
            "title": f"Idea {n}",
            "description": f"About idea {n}.",
            "keywords": ["a", "b", "c"],
            "outline": ["one", "two", "three"],
        }
        for n in (1, 2, 3)
    ]
}
ARTICLE = {
    "title": "Faster Sites for Dentists",
    "content": "<h2>Why</h2><p>Because.</p><script>alert(1)</script>",
    "metaDescription": "A short description.",
    "keywords": ["dentist", "website speed"],
}
IDEA = {
    "title": "Faster Sites for Dentists",
    "description": "Speed matters.",
    "keywords": ["dentist", "speed", "seo"],
    "outline": ["Why", "How", "What next"],
}


async def run_jobs(app: Any) -> None:
    """Run every queued generation job, as a runner would."""
    settings = settings_of(SeoSettings, app.app)
    for job in await jobs.Job.filter(kind=generations.JOB_KIND, status=jobs.QUEUED):
        with contextlib.suppress(jobs.PermanentFailure):
            await generations.run_generation(settings, job.payload["generation_id"])


async def generate(app: Any, client: Any, path: str, body: Any) -> dict[str, Any]:
    status, queued = await call(client, "post", path, body)
    assert status == 202, queued
    assert queued["status"] == "queued" and queued["error"] is None
    await run_jobs(app)
    status, data = await call(client, "get", f"/api/admin/generations/{queued['id']}")
    assert status == 200
    return dict(data)


# --- Ideas ----------------------------------------------------------------------------------


async def test_three_ideas_on_a_topic(app: Any, admin: Any, fake_ai: FakeOpenAI) -> None:
    fake_ai.handler = lambda messages, model: IDEAS
    data = await generate(app, admin, "/api/admin/article-ideas", {"topic": "  dental websites "})
    assert data["status"] == "done", data
    assert data["kind"] == "ideas" and data["topic"] == "dental websites"
    assert data["ideas"] == IDEAS["ideas"]
    assert data["article_id"] is None
    [request] = fake_ai.requests
    assert request.response_format == {"type": "json_object"}
    assert request.model == "gpt-4o-mini"
    assert "dental websites" in request.messages[-1]["content"]
    assert "json" in request.text().lower() and "3" in request.text()


async def test_partial_ideas_get_defaults(app: Any, admin: Any, fake_ai: FakeOpenAI) -> None:
    fake_ai.push(
        Outcome.json_answer(
            {
                "ideas": [
                    {"title": "Only a title"},
                    {"description": "no title: skipped"},
                    {"title": "Keywords as text", "keywords": "x, y, z, w", "outline": "a\nb"},
                    "not an object",
                    {"title": "Fourth", "keywords": ["k"]},
                    {"title": "Fifth: over three"},
                ]
            }
        )
    )
    data = await generate(app, admin, "/api/admin/article-ideas", {"topic": "t"})
    assert data["status"] == "done", data
    assert data["ideas"] == [
        {"title": "Only a title", "description": "", "keywords": [], "outline": []},
        {
            "title": "Keywords as text",
            "description": "",
            "keywords": ["x", "y", "z"],
            "outline": ["a", "b"],
        },
        {"title": "Fourth", "description": "", "keywords": ["k"], "outline": []},
    ]


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        (Outcome.text("Here are some ideas: 1. ..."), "The AI's answer was not valid JSON."),
        (Outcome.text('{"ideas": [{"title": "Cut'), "The AI's answer was not valid JSON."),
        (
            Outcome.truncated(),
            "The AI's answer was cut off (it reached the length limit).",
        ),
        (
            Outcome.json_answer({"ideas": []}),
            "The AI's answer held no usable ideas. Please try again.",
        ),
        (
            Outcome.json_answer({"something": "else"}),
            "The AI's answer held no usable ideas. Please try again.",
        ),
        (Outcome.invalid_key(), "The AI provider refused the key (401)."),
        (
            Outcome.quota(),
            "The AI provider's quota is used up (429 insufficient_quota): "
            "check the plan and billing with the provider.",
        ),
    ],
)
async def test_failures_show_a_message(
    app: Any, admin: Any, fake_ai: FakeOpenAI, outcome: Outcome, message: str
) -> None:
    fake_ai.push(outcome)
    data = await generate(app, admin, "/api/admin/article-ideas", {"topic": "t"})
    assert data["status"] == "failed"
    assert data["error"] == message
    assert data["ideas"] is None
    assert len(fake_ai.requests) == 1  # none of these is asked again


async def test_a_rate_limited_provider_is_asked_again(
    app: Any, admin: Any, fake_ai: FakeOpenAI
) -> None:
    fake_ai.push(Outcome.rate_limited())
    fake_ai.handler = lambda messages, model: IDEAS
    data = await generate(app, admin, "/api/admin/article-ideas", {"topic": "t"})
    assert data["status"] == "done" and len(data["ideas"]) == 3
    assert len(fake_ai.requests) == 2


async def test_a_provider_past_the_timeout(app: Any, admin: Any, fake_ai: FakeOpenAI) -> None:
    fake_ai.push(Outcome.slow(3.0), Outcome.slow(3.0))
    data = await generate(app, admin, "/api/admin/article-ideas", {"topic": "t"})
    assert data["status"] == "failed"
    assert data["error"] == "The AI provider did not answer within 2 seconds."


async def test_a_wrong_key_in_the_settings(
    tmp_path: Path, database_url: str, fake_ai: FakeOpenAI
) -> None:
    settings = make_settings(
        tmp_path, database_url, **ai_settings(fake_ai, ai_api_key="sk-not-the-right-one")
    )
    async with create_app(settings).test_app() as app:
        client = await signed_up(app, ADMIN_EMAIL, admin=True)
        data = await generate(app, client, "/api/admin/article-ideas", {"topic": "t"})
    assert data["status"] == "failed"
    assert data["error"] == "The AI provider refused the key (401)."
    assert "sk-not-the-right-one" not in json.dumps(data)


async def test_an_empty_topic(admin: Any, fake_ai: FakeOpenAI) -> None:
    for topic in ("", "   "):
        status, data = await call(admin, "post", "/api/admin/article-ideas", {"topic": topic})
        assert status == 400 and error_message(data) == "Please enter a topic"
    status, data = await call(admin, "post", "/api/admin/article-ideas", {})
    assert status == 400 and error_message(data) == "Please enter a topic"
    assert fake_ai.requests == []


# --- Articles -------------------------------------------------------------------------------


async def test_an_idea_becomes_the_admins_draft(app: Any, admin: Any, fake_ai: FakeOpenAI) -> None:
    long_description = "Word " * 60  # 300 characters: the page gets under 160
    fake_ai.handler = lambda messages, model: {**ARTICLE, "metaDescription": long_description}
    data = await generate(app, admin, "/api/admin/article-drafts", IDEA)
    assert data["status"] == "done", data
    assert data["kind"] == "article" and data["title"] == IDEA["title"]
    status, article = await call(admin, "get", f"/api/admin/articles/{data['article_id']}")
    assert status == 200
    assert article["status"] == "draft"
    assert article["created_by"] == admin.user_id
    assert article["title"] == "Faster Sites for Dentists"
    assert article["slug"] == "faster-sites-for-dentists"
    assert article["keywords"] == ["dentist", "website speed"]
    assert "<h2>Why</h2>" in article["content"] and "<script" not in article["content"]
    assert len(article["meta_description"]) < 160
    assert article["meta_description"] == ("Word " * 32).strip()  # 159 characters
    prompt = fake_ai.requests[0].messages[-1]["content"]
    for part in ("Faster Sites for Dentists", "Speed matters.", "- How", "dentist, speed, seo"):
        assert part in prompt
    assert "metaDescription" in prompt and "160" in prompt


async def test_a_partial_article_gets_defaults(app: Any, admin: Any, fake_ai: FakeOpenAI) -> None:
    fake_ai.push(Outcome.json_answer({"content": "## Heading\n\nSome *Markdown* text."}))
    data = await generate(app, admin, "/api/admin/article-drafts", IDEA)
    assert data["status"] == "done", data
    _, article = await call(admin, "get", f"/api/admin/articles/{data['article_id']}")
    assert article["title"] == IDEA["title"]  # the idea's
    assert article["keywords"] == IDEA["keywords"]  # the idea's
    assert "<h2>Heading</h2>" in article["content"]  # Markdown rendered
    assert article["meta_description"] == "Heading Some Markdown text."  # from the body


async def test_an_article_without_a_body_fails_and_saves_nothing(
    app: Any, admin: Any, fake_ai: FakeOpenAI
) -> None:
    fake_ai.push(Outcome.json_answer({"title": "No body", "metaDescription": "x"}))
    data = await generate(app, admin, "/api/admin/article-drafts", IDEA)
    assert data["status"] == "failed"
    assert data["error"] == "The AI's answer held no article text. Please try again."
    _, listed = await call(admin, "get", "/api/admin/articles")
    assert listed["articles"] == []


async def test_an_idea_needs_a_title(admin: Any) -> None:
    status, data = await call(admin, "post", "/api/admin/article-drafts", {"title": " "})
    assert status == 400 and error_message(data) == "Please enter a title"


# --- Without an AI key ----------------------------------------------------------------------


async def test_without_an_ai_key(tmp_path: Path, database_url: str) -> None:
    async with create_app(make_settings(tmp_path, database_url)).test_app() as app:
        client = await signed_up(app, ADMIN_EMAIL, admin=True)
        status, data = await call(client, "get", "/api/admin/ai")
        assert (status, data) == (200, {"configured": False, "model": None})
        status, data = await call(client, "post", "/api/admin/article-ideas", {"topic": "t"})
        assert status == 503 and error_message(data) == "AI is not configured"
        status, data = await call(client, "post", "/api/admin/article-drafts", IDEA)
        assert status == 503 and error_message(data) == "AI is not configured"
        # The topic is checked first, as the page does.
        status, data = await call(client, "post", "/api/admin/article-ideas", {"topic": ""})
        assert status == 400 and error_message(data) == "Please enter a topic"
        # Writing by hand still works end to end.
        status, article = await call(client, "post", "/api/admin/articles", {"title": "By hand"})
        assert status == 201
        status, data = await call(client, "post", f"/api/admin/articles/{article['id']}/publish")
        assert status == 200 and data["status"] == "published"
        assert await Generation.all().count() == 0


async def test_ai_status_names_the_model(admin: Any) -> None:
    status, data = await call(admin, "get", "/api/admin/ai")
    assert (status, data) == (200, {"configured": True, "model": "gpt-4o-mini"})


# --- Limits and the job ---------------------------------------------------------------------


async def test_thirty_generations_an_hour_per_admin(admin: Any, fake_ai: FakeOpenAI) -> None:
    for _ in range(30):
        status, _ = await call(admin, "post", "/api/admin/article-ideas", {"topic": "t"})
        assert status == 202
    status, data = await call(admin, "post", "/api/admin/article-drafts", IDEA)
    assert status == 429, data


async def test_unknown_generations_are_404(admin: Any) -> None:
    for generation_id in ("0" * 32, "nope", "A" * 32):
        status, _ = await call(admin, "get", f"/api/admin/generations/{generation_id}")
        assert status == 404


async def test_two_runners_at_once_write_one_draft(
    app: Any, admin: Any, fake_ai: FakeOpenAI
) -> None:
    fake_ai.handler = lambda messages, model: ARTICLE
    fake_ai.delay = 0.3
    try:
        _, queued = await call(admin, "post", "/api/admin/article-drafts", IDEA)
        settings = settings_of(SeoSettings, app.app)
        await asyncio.gather(
            generations.run_generation(settings, queued["id"]),
            generations.run_generation(settings, queued["id"]),
        )
        await generations.run_generation(settings, queued["id"])  # late: nothing happens
    finally:
        fake_ai.delay = 0
    assert len(fake_ai.requests) == 1
    _, listed = await call(admin, "get", "/api/admin/articles")
    assert len(listed["articles"]) == 1


async def test_a_runner_that_stops_puts_the_generation_back(
    app: Any, admin: Any, fake_ai: FakeOpenAI
) -> None:
    fake_ai.push(Outcome.slow(1.5))
    fake_ai.handler = lambda messages, model: IDEAS
    _, queued = await call(admin, "post", "/api/admin/article-ideas", {"topic": "t"})
    settings = settings_of(SeoSettings, app.app)
    run = asyncio.create_task(generations.run_generation(settings, queued["id"]))
    for _ in range(100):
        if fake_ai.requests:
            break
        await asyncio.sleep(0.02)
    assert (await Generation.get(public_id=queued["id"])).status == "running"
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    assert (await Generation.get(public_id=queued["id"])).status == "queued"
    await generations.run_generation(settings, queued["id"])
    row = await Generation.get(public_id=queued["id"])
    assert row.status == "done" and row.ideas is not None and len(row.ideas) == 3


async def test_the_server_runs_the_generation_while_the_page_polls(
    tmp_path: Path, database_url: str, fake_ai: FakeOpenAI
) -> None:
    fake_ai.handler = lambda messages, model: ARTICLE
    fake_ai.push(Outcome.slow(0.3))
    settings = make_settings(tmp_path, database_url, run_jobs=True, **ai_settings(fake_ai))
    async with create_app(settings).test_app() as app:
        client = await signed_up(app, ADMIN_EMAIL, admin=True)
        status, queued = await call(client, "post", "/api/admin/article-drafts", IDEA)
        assert status == 202
        seen: list[str] = []
        for _ in range(200):
            _, data = await call(client, "get", f"/api/admin/generations/{queued['id']}")
            if not seen or seen[-1] != data["status"]:
                seen.append(data["status"])
            if data["status"] in ("done", "failed"):
                break
            await asyncio.sleep(0.05)
        assert seen[-1] == "done" and "running" in seen, (seen, data)
        _, article = await call(client, "get", f"/api/admin/articles/{data['article_id']}")
        assert article["status"] == "draft"


async def test_finished_generations_go_after_their_time(
    app: Any, admin: Any, fake_ai: FakeOpenAI
) -> None:
    fake_ai.handler = lambda messages, model: IDEAS
    done = await generate(app, admin, "/api/admin/article-ideas", {"topic": "old"})
    _, waiting = await call(admin, "post", "/api/admin/article-ideas", {"topic": "queued"})
    settings = settings_of(SeoSettings, app.app)
    now = datetime.now(UTC)
    assert await generations.prune(settings, now) == {"seo.generations": 0}
    later = now + timedelta(days=settings.retention_ai_generations_days, minutes=1)
    assert await generations.prune(settings, later) == {"seo.generations": 1}
    remaining = await Generation.all().values_list("public_id", flat=True)
    assert remaining == [waiting["id"]] and done["id"] not in remaining


async def test_user_data_export_and_erase(app: Any, admin: Any, fake_ai: FakeOpenAI) -> None:
    await generate(app, admin, "/api/admin/article-ideas", {"topic": "mine"})
    exported = await generations.export_user(admin.user_id)
    assert isinstance(exported, dict)
    [item] = exported["generations"]
    assert (item["kind"], item["topic"], item["status"]) == ("ideas", "mine", "done")
    await generations.erase_user(admin.user_id)
    assert await generations.export_user(admin.user_id) == {"generations": []}
    assert await Generation.all().count() == 1  # kept, without its requester
