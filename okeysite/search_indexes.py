"""Trigram indexes for the admin's searches of words and names, on PostgreSQL only.

Django's `icontains` search is `UPPER(column::text) LIKE UPPER('%term%')`: no B-tree
index serves a pattern that starts with `%`, so every search read its whole table (the
users, the player settings, the chat lines). A GIN index of `pg_trgm` trigrams over that
same expression does, for any term of three letters or more. SQLite, the embedded
default, has no such index and small tables: there the migration does nothing.
"""
from django.db import migrations


def _gin_indexes(table, columns, suffix, expression, setup=None):
    # The migration operation both kinds of index share: on PostgreSQL, run `setup` (SQL or
    # None) and create one GIN index `<table>_<column>_<suffix>` on `expression(column)` for
    # each column; drop them when reversed. Elsewhere nothing.
    def create(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        if setup:
            schema_editor.execute(setup)
        for column in columns:
            schema_editor.execute(f'CREATE INDEX IF NOT EXISTS "{table}_{column}_{suffix}" ON "{table}" '
                                  f"USING gin ({expression(column)})")

    def drop(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for column in columns:
            schema_editor.execute(f'DROP INDEX IF EXISTS "{table}_{column}_{suffix}"')

    return migrations.RunPython(create, drop, elidable=False)


def trigram_indexes(table, columns):
    """A migration operation that creates, on PostgreSQL, the `pg_trgm` extension and one
    GIN index named `<table>_<column>_trgm` on `UPPER(<column>::text)` for each of
    `columns` of `table` (str, list of str), and drops them when reversed. Elsewhere it
    does nothing. Returns a `migrations.RunPython`."""
    return _gin_indexes(table, columns, "trgm", lambda column: f'(UPPER("{column}"::text)) gin_trgm_ops',
                        setup="CREATE EXTENSION IF NOT EXISTS pg_trgm")


# Trigrams need three letters: a shorter term ("gg", "ok") matched every line through
# the trigram index's full scan. Such a term is looked up as a whole word instead, in a
# GIN index of each line's words (the `simple` configuration: lower case, no stemming,
# no stop words), which PostgreSQL answers from the word's own entry.
SHORT_TERM = 3  # terms shorter than this (characters) are searched as whole words


def _words_expression(column):
    return f"to_tsvector('simple'::regconfig, COALESCE(\"{column}\", ''))"


def word_indexes(table, columns):
    """A migration operation that creates, on PostgreSQL, one GIN index named
    `<table>_<column>_words` on the words of each of `columns` of `table` (the expression
    `has_word` filters by), and drops them when reversed. Elsewhere it does nothing.
    Returns a `migrations.RunPython`."""
    return _gin_indexes(table, columns, "words", lambda column: f"({_words_expression(column)})")


def has_word(model, column, word):
    """The condition (a boolean expression for `filter`, or a Q) of the rows of `model`
    whose `column` holds `word` as a whole word, any case. On PostgreSQL it matches the
    index of `word_indexes`; elsewhere it is `icontains` (small tables, no such index).
    A `word` with no letter or digit (punctuation alone) is searched as `icontains`."""
    from django.db import connection
    from django.db.models import BooleanField, Q
    from django.db.models.expressions import RawSQL

    plain = "".join(ch for ch in word if ch.isalnum())
    if connection.vendor != "postgresql" or not plain or plain != word:
        return Q(**{f"{column}__icontains": word})
    table = connection.ops.quote_name(model._meta.db_table)
    expression = _words_expression(column).replace(f'"{column}"', f'{table}."{column}"')
    # plainto_tsquery: the term is data, never tsquery syntax
    return RawSQL(f"{expression} @@ plainto_tsquery('simple'::regconfig, %s)", [word], output_field=BooleanField())
