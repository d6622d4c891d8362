"""The article manager's use cases, one file each: `articles` (the admin's article list, edits
and status changes, through `blog.api`), `generations` (AI ideas and articles as jobs),
`answers` (the prompts and the defensive reading of the AI's answers), `importing` (Markdown
files with front matter into drafts)."""
