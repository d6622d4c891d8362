"""The seo module's settings keys (the article manager). It extends the AI provider's class
(`agency.net`)."""

from __future__ import annotations

from pydantic import Field

from agency.net.settings import AiSettings


class SeoSettings(AiSettings):
    """The AI provider's keys (and the kernel's) and the seo module's."""

    retention_ai_generations_days: int = Field(
        default=30,
        ge=1,
        le=36500,
        description="The article manager's AI generations (topic, ideas), after they finished; "
        "the drafts they wrote stay.",
    )
