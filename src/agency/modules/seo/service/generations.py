"""AI generations as jobs: an admin's request for three article ideas on a topic, or for the
full article of one idea, saved as a draft under the admin's user id.

`start_ideas` / `start_article` check what was sent and the AI's configuration, count the
admin's hourly limit, store a `queued` row and queue the job `seo.generation`; the page polls
`get_generation` until the row is `done` (ideas, or the draft's id) or `failed` (`error`: the
message for the red 'Error' box). The job (`run_generation`) moves the row to running by a
compare-and-swap on `started_at`, as the speed test does, so a runner holding a stale copy does
nothing; the article's draft is created in the same transaction that marks the row done, so a
job run again after a crash never leaves a second draft. `ideas_now` / `article_now` do the
same work in the caller's process (the CLI).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from tortoise.transactions import in_transaction

from agency.core import jobs, ratelimit
from agency.core.errors import ServiceUnavailable, ValidationFailed
from agency.core.jobs import DONE, FAILED, QUEUED
from agency.core.modules import JobOptions
from agency.core.ratelimit import Limit
from agency.modules.blog import api as blog_api
from agency.modules.seo.models import Generation
from agency.modules.seo.schemas import (
    AiStatusOut,
    ArticleIn,
    ArticleOut,
    GenerateArticleIn,
    GenerationOut,
    IdeaOut,
)
from agency.modules.seo.service import answers
from agency.modules.seo.service.answers import GenerationFailed
from agency.modules.seo.settings import SeoSettings
from agency.net import ai

log = logging.getLogger(__name__)

JOB_KIND = "seo.generation"

MSG_TOPIC = "Please enter a topic"  # spec §5
MSG_TITLE = "Please enter a title"
MSG_NOT_CONFIGURED = ai.MSG_NOT_CONFIGURED  # 'AI is not configured'
MSG_GENERIC = "The AI generation failed. Please try again."
MSG_NOT_FOUND = "This generation does not exist."

# An admin may start 30 generations an hour (each costs the agency money at the provider).
GENERATIONS_PER_ADMIN = Limit("seo-generation", limit=30, window=60 * 60)
# A lost job (its runner died) gets one more run; AI failures are retried inside net.ai.
JOB_ATTEMPTS = 2
# Beyond net.ai's own bound (every try's timeout and the back-off between them).
RUN_GRACE_SECONDS = 15.0
LEASE_MARGIN = timedelta(seconds=5)
# A row still queued or running this long after it was created has no job left working on it.
STALE_AFTER = timedelta(minutes=45)
# Generations wait on the AI provider: a few at once per process, in slots of their own.
PER_PROCESS = 8


def ai_status(settings: SeoSettings) -> AiStatusOut:
    configured = ai.configured(settings)
    return AiStatusOut(configured=configured, model=ai.model_name(settings) if configured else None)


def require_ai(settings: SeoSettings) -> None:
    if not ai.configured(settings):
        raise ServiceUnavailable(MSG_NOT_CONFIGURED, code="ai_not_configured")


def check_topic(topic: str) -> str:
    cleaned = " ".join(topic.split())
    if not cleaned:
        raise ValidationFailed(MSG_TOPIC, fields={"topic": MSG_TOPIC})
    return cleaned


def check_idea(idea: GenerateArticleIn) -> GenerateArticleIn:
    """The idea as the prompt will show it: whitespace tidied, empty items dropped."""
    title = " ".join(idea.title.split())
    if not title:
        raise ValidationFailed(MSG_TITLE, fields={"title": MSG_TITLE})
    return GenerateArticleIn(
        title=title,
        description=" ".join(idea.description.split()),
        keywords=[k for k in (" ".join(k.split()) for k in idea.keywords) if k],
        outline=[p for p in (" ".join(p.split()) for p in idea.outline) if p],
    )


# ---------------------------------------------------------------------------------------------
# Starting and reading


async def start_ideas(topic: str, *, admin_id: int, settings: SeoSettings) -> GenerationOut:
    """Queue three ideas on `topic` (queuing its job wakes the job runner)."""
    cleaned = check_topic(topic)
    require_ai(settings)
    await ratelimit.enforce(GENERATIONS_PER_ADMIN, str(admin_id))
    return await _queue("ideas", admin_id=admin_id, topic=cleaned)


async def start_article(
    idea: GenerateArticleIn, *, admin_id: int, settings: SeoSettings
) -> GenerationOut:
    """Queue the full article of one idea, to be saved as the admin's draft."""
    checked = check_idea(idea)
    require_ai(settings)
    await ratelimit.enforce(GENERATIONS_PER_ADMIN, str(admin_id))
    return await _queue(
        "article", admin_id=admin_id, title=checked.title, request=checked.model_dump()
    )


async def _queue(
    kind: Literal["ideas", "article"],
    *,
    admin_id: int,
    topic: str | None = None,
    title: str | None = None,
    request: dict[str, Any] | None = None,
) -> GenerationOut:
    async with in_transaction():
        row = await Generation.create(
            public_id=uuid.uuid4().hex,
            kind=kind,
            status=QUEUED,
            topic=topic,
            title=title,
            request=request or {},
            created_by=admin_id,
        )
        await jobs.enqueue(JOB_KIND, {"generation_id": row.public_id}, max_attempts=JOB_ATTEMPTS)
    return out(row)


async def get_generation(public_id: str) -> GenerationOut:
    row = await jobs.read_tracked(
        Generation,
        public_id,
        stale_after=STALE_AFTER,
        stale_message=MSG_GENERIC,
        not_found=MSG_NOT_FOUND,
    )
    return out(row)


def out(row: Generation) -> GenerationOut:
    ideas = None
    if row.kind == "ideas" and row.status == DONE and row.ideas is not None:
        ideas = [IdeaOut.model_validate(item) for item in row.ideas]
    return GenerationOut(
        id=row.public_id,
        kind="article" if row.kind == "article" else "ideas",
        status=jobs.status_of(row.status),
        topic=row.topic,
        title=row.title,
        ideas=ideas,
        article_id=row.article_id if row.status == DONE else None,
        created_at=row.created_at,
        error=row.error if row.status == FAILED else None,
    )


# ---------------------------------------------------------------------------------------------
# The work (the job's and the CLI's)


async def ideas_now(topic: str, settings: SeoSettings) -> list[IdeaOut]:
    """Three ideas on `topic`, asked now; raises `ai.AIError` or `GenerationFailed`."""
    data = await ai.complete_json(
        settings,
        system=answers.SYSTEM,
        user=answers.ideas_prompt(check_topic(topic)),
        max_tokens=answers.IDEAS_MAX_TOKENS,
    )
    return answers.parse_ideas(data)


async def write_article(idea: GenerateArticleIn, settings: SeoSettings) -> ArticleIn:
    """The article of one idea, asked now, as the blog saves it (not saved yet)."""
    checked = check_idea(idea)
    data = await ai.complete_json(
        settings,
        system=answers.SYSTEM,
        user=answers.article_prompt(checked),
        max_tokens=answers.ARTICLE_MAX_TOKENS,
    )
    article = answers.parse_article(data, checked)
    return ArticleIn(
        title=article.title,
        meta_description=article.meta_description,
        keywords=article.keywords,
        content=article.content,
    )


async def article_now(
    idea: GenerateArticleIn, settings: SeoSettings, *, created_by: int | None
) -> ArticleOut:
    """Write the article of one idea now and save it as a draft."""
    return await blog_api.create_article(await write_article(idea, settings), created_by=created_by)


# ---------------------------------------------------------------------------------------------
# The job


class _Superseded(Exception):
    """Raised inside the saving transaction when the row is no longer this run's."""


def run_limit(settings: SeoSettings) -> timedelta:
    """The longest one generation may take: every try of net.ai with its back-off."""
    tries = settings.ai_max_retries + 1
    backoff = sum(min(ai.BACKOFF_MAX, ai.BACKOFF_FIRST * 2**n) for n in range(tries - 1))
    return timedelta(seconds=tries * settings.ai_timeout + backoff + RUN_GRACE_SECONDS)


def job_options(settings: SeoSettings) -> dict[str, JobOptions]:
    return {JOB_KIND: JobOptions(limit=PER_PROCESS, lease=run_limit(settings) + LEASE_MARGIN)}


def job_handler(settings: SeoSettings) -> Callable[[dict[str, Any]], Awaitable[None]]:
    async def handle(payload: dict[str, Any]) -> None:
        await run_generation(settings, str(payload.get("generation_id", "")))

    return handle


async def run_generation(settings: SeoSettings, public_id: str) -> None:
    """The job: run one queued generation and store its outcome (see the module docstring)."""
    row = await Generation.get_or_none(public_id=public_id)
    if row is None or row.status in (DONE, FAILED):
        return
    run = await jobs.TrackedRun.start(
        Generation, row, run_limit(settings), model=ai.model_name(settings)
    )
    if run is None:
        return  # another runner is on it
    try:
        work = _work(row, settings, run)
        await asyncio.wait_for(work, run_limit(settings).total_seconds())
    except asyncio.CancelledError:
        await run.requeue()
        raise
    except ai.AIError as exc:
        await run.fail(exc.message)
        raise jobs.PermanentFailure(exc.message) from exc
    except GenerationFailed as exc:
        await run.fail(exc.message)
        raise jobs.PermanentFailure(exc.message) from exc
    except _Superseded:
        return  # another run of this job finished the generation; our draft was rolled back
    except TimeoutError as exc:
        message = f"The AI provider did not answer within {settings.ai_timeout:g} seconds."
        await run.fail(message)
        raise jobs.PermanentFailure(message) from exc
    except Exception as exc:
        log.exception("generation %s failed unexpectedly", public_id)
        await run.fail(MSG_GENERIC)
        raise jobs.PermanentFailure(MSG_GENERIC) from exc


async def _work(row: Generation, settings: SeoSettings, run: jobs.TrackedRun) -> None:
    if row.kind == "ideas":
        ideas = await ideas_now(row.topic or "", settings)
        await run.finish(ideas=[idea.model_dump() for idea in ideas])
        return
    idea = GenerateArticleIn.model_validate(row.request or {"title": row.title or ""})
    article = await write_article(idea, settings)
    async with in_transaction():
        saved = await blog_api.create_article(article, created_by=row.created_by)
        won = await run.finish(article_id=saved.id)
        if not won:
            raise _Superseded  # rolls the draft back: another run owns this generation


async def prune(settings: SeoSettings, now: datetime) -> dict[str, int]:
    """Retention: finished generations (a topic, three ideas) go
    `retention_ai_generations_days` after they finished; the drafts they wrote stay."""
    cutoff = now - timedelta(days=settings.retention_ai_generations_days)
    removed = await Generation.filter(status__in=(DONE, FAILED), finished_at__lt=cutoff).delete()
    return {"seo.generations": removed}


async def export_user(user_id: int) -> object:
    """What an admin asked the AI for (their data export)."""
    rows = await Generation.filter(created_by=user_id).order_by("id")
    return {
        "generations": [
            {
                "kind": row.kind,
                "topic": row.topic,
                "title": row.title,
                "status": row.status,
                "article_id": row.article_id,
                "created_at": row.created_at.isoformat(),
            }
            for row in rows
        ]
    }


async def erase_user(user_id: int) -> None:
    """An erased account's generations stay (the agency's drafts came from them), without
    their requester."""
    await Generation.filter(created_by=user_id).update(created_by=None)


def _now() -> datetime:
    return datetime.now(UTC)
