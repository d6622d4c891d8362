"""What the blog holds about a person: the articles their account wrote (`created_by`)."""

from __future__ import annotations

from agency.modules.blog.service import articles


async def export_user(user_id: int) -> object:
    return {"articles": await articles.written_by(user_id)}


async def erase_user(user_id: int) -> None:
    """The articles stay (they are the agency's), without the writer's id."""
    await articles.forget_writer(user_id)
