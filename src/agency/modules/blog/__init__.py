"""The public blog: published articles, article pages and the RSS feed.

Other modules use this module only through `agency.modules.blog.api`."""
