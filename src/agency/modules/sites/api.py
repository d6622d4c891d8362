"""What other modules may use of websites."""

from agency.modules.sites.schemas import WebsiteOut
from agency.modules.sites.service.websites import clean_domain, create_website, list_websites

__all__ = ["WebsiteOut", "clean_domain", "create_website", "list_websites"]
