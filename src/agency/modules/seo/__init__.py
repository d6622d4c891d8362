"""The article manager: AI-generated ideas and articles for the blog, for admins.

Other modules use this module only through `agency.modules.seo.api`."""
