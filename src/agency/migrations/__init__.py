"""Tortoise native migrations: one tree for SQLite and PostgreSQL. Create a new one with
`scripts/makemigrations NAME` after changing models."""
