"""Trigram indexes for the admin's searches of words and names, on PostgreSQL only.

Django's `icontains` search is `UPPER(column::text) LIKE UPPER('%term%')`: no B-tree
index serves a pattern that starts with `%`, so every search read its whole table (the
users, the player settings, the chat lines). A GIN index of `pg_trgm` trigrams over that
same expression does, for any term of three letters or more. SQLite, the embedded
default, has no such index and small tables: there the migration does nothing.
"""
from django.db import migrations


def trigram_indexes(table, columns):
    """A migration operation that creates, on PostgreSQL, the `pg_trgm` extension and one
    GIN index named `<table>_<column>_trgm` on `UPPER(<column>::text)` for each of
    `columns` of `table` (str, list of str), and drops them when reversed. Elsewhere it
    does nothing. Returns a `migrations.RunPython`."""

    def create(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        for column in columns:
            schema_editor.execute(
                f'CREATE INDEX IF NOT EXISTS "{table}_{column}_trgm" ON "{table}" '
                f'USING gin ((UPPER("{column}"::text)) gin_trgm_ops)')

    def drop(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for column in columns:
            schema_editor.execute(f'DROP INDEX IF EXISTS "{table}_{column}_trgm"')

    return migrations.RunPython(create, drop, elidable=False)
