"""The blog's use cases, one file each: `sanitise` (the HTML allow-list), `articles` (the
article manager's storage: create, edit, status, slugs and their redirects), `public` (the
published list, an article's page, the RSS feed and the sitemap entries) and `user_data`."""
