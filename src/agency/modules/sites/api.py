"""What other modules may use of websites: create one, a user's list, and the owner's
overview's figures (websites per status with their average score, the wait in building)."""

from agency.modules.sites.schemas import WebsiteOut
from agency.modules.sites.service.figures import (
    StatusFigure,
    WebsiteFigures,
    live_websites,
    website_figures,
)
from agency.modules.sites.service.websites import clean_domain, create_website, list_websites

__all__ = [
    "StatusFigure",
    "WebsiteFigures",
    "WebsiteOut",
    "clean_domain",
    "create_website",
    "list_websites",
    "live_websites",
    "website_figures",
]
