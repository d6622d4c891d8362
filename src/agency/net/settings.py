"""The AI provider's keys (`agency.net.ai`): any OpenAI-compatible chat-completions endpoint,
called by our server only. Without a key, features that need it say 'AI is not configured'.
The modules that ask the model extend this class (`Module.settings`)."""

from __future__ import annotations

from pydantic import Field, ValidationInfo, field_validator

from agency.core.settings import Settings, http_base


class AiSettings(Settings):
    """The kernel's keys and the AI provider's."""

    ai_api_key: str = Field(
        default="",
        description="Key of the OpenAI-compatible AI provider (server only). Empty: analysis "
        "reports are written by rules and the article manager says 'AI is not configured'.",
    )
    ai_base_url: str = Field(
        default="https://api.openai.com/v1",
        description="Any OpenAI-compatible chat-completions endpoint (a European or "
        "self-hosted model).",
    )
    ai_model: str = Field(
        default="gpt-4o-mini",
        description="The model the analysis and the article manager ask (it must support JSON "
        "mode).",
    )
    ai_timeout: float = Field(
        default=60.0, gt=0, le=600, description="Seconds one AI request may take."
    )
    ai_max_retries: int = Field(
        default=2,
        ge=0,
        le=5,
        description="Retries after a rate limit, a timeout, a connection failure or a 5xx "
        "(never after a used-up quota).",
    )

    @field_validator("ai_base_url")
    @classmethod
    def _check_ai_base(cls, value: str) -> str:
        return http_base(value)

    @field_validator("ai_api_key", "ai_model")
    @classmethod
    def _strip(cls, value: str, info: ValidationInfo) -> str:
        value = value.strip()
        if info.field_name == "ai_model" and not value:
            raise ValueError("must name a model, e.g. gpt-4o-mini")
        return value
