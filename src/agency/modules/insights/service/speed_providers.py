"""Page-speed providers behind one interface: Google PageSpeed Insights v5 over httpx, and a
local Lighthouse run. Both read a Lighthouse result (LHR) into a `SpeedReport`; failures raise
`SpeedTestFailed` with the spec's message (§8), word for word.

INTERFACE AGREED FOR ISSUE 14 (engineer P implements the providers; engineer S calls
`provider_for(settings, name)` from the speed-test job). Keep these names and fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

Strategy = Literal["mobile", "desktop"]
ProviderName = Literal["psi", "lighthouse"]

MSG_UNREACHABLE = (
    "Unable to access the website. Please check if the domain is correct and the website is "
    "accessible."
)
MSG_RUN_FAILED = "Failed to run PageSpeed test."
MSG_INVALID_RESPONSE = "Invalid response from PageSpeed API."
MSG_GENERIC = "Failed to test website speed."


@dataclass(frozen=True)
class FieldMetric:
    """Field data (Chrome UX Report) for one metric at p75, when Google has it."""

    name: str  # "LCP", "INP" or "CLS"
    percentile: float  # ms for LCP/INP; CLS as a plain number (Google sends CLS x 100)
    category: str  # "FAST", "AVERAGE" or "SLOW"


@dataclass(frozen=True)
class Opportunity:
    """A Lighthouse opportunity, in plain words, with the time it would save."""

    id: str
    title: str
    savings_ms: int


@dataclass(frozen=True)
class SpeedReport:
    score: int  # performance score x 100, rounded, 0-100
    speed_index_ms: int  # rounded
    total_blocking_time_ms: int  # rounded
    largest_contentful_paint_ms: int | None
    cumulative_layout_shift: float | None
    first_contentful_paint_ms: int | None
    final_url: str
    provider: ProviderName
    lighthouse_version: str = ""
    field_data: list[FieldMetric] = field(default_factory=list)
    field_overall: str | None = None  # loadingExperience.overall_category
    opportunities: list[Opportunity] = field(default_factory=list)  # the 3 largest, largest first


class SpeedTestFailed(Exception):
    """A speed test that could not produce a result; `message` is what the visitor sees."""

    def __init__(self, message: str, *, quota: bool = False, retryable: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.quota = quota  # the provider's quota is used up (PSI 429)
        self.retryable = retryable  # worth another attempt (timeouts, 5xx other than the page's)


class SpeedProvider(Protocol):
    name: ProviderName

    async def run(self, url: str, strategy: Strategy) -> SpeedReport:
        """Test `url` (already `https://`-prefixed by the caller when it had no scheme)."""
        ...
