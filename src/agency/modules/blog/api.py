"""What other modules may use of the blog: nothing yet (it has no articles until the blog is
built); its functions will be added here, for the sitemap first."""

__all__: list[str] = []
