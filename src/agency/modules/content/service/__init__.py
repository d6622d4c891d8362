"""Content use cases, one file each; callers import the file they need
(`from agency.modules.content.service import pages`).

- `pages`: the public site's details, the Markdown pages, the tokens filled into the prerendered
  HTML at start-up, robots.txt and the sitemap.
- `claims`: the operator's claims (urgency and scarcity texts, figures, testimonials, logos) and
  the one switch for every urgency claim, cut from or filled into the prerendered HTML.
"""
