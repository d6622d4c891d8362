"""The public site's content: the site details shown on pages (phone, contact e-mail, scheduling
URL, the plan each content-engine route sells), the Markdown footer pages, filling both into the
prerendered HTML at start-up, `/api/pages/{name}`, `/robots.txt`, `/sitemap.xml` and the data
directory's media files at `/media/{name}` (the /ugc-force sample video).

It sits at the top of the module layers, so its sitemap may ask other modules (e.g. the blog)
for pages through their `api.py`. No other module imports it."""
