"""The admin's search of a list by a player's user name and by words of its own columns,
through indexes on tables of any size.

A search over a joined column (`user__username`) with Django's default search is one
`WHERE` over the join: ORed with a column of the list itself, PostgreSQL reads both tables
whole. Here the users whose name contains the term (any case) are read first, through the
trigram index on `UPPER(username)` (`okeysite.search_indexes`), and the list is then
filtered on that short list of ids, ORed with its own columns' trigram-indexed `icontains`.
"""
from django.contrib.auth import get_user_model
from django.db.models import BooleanField, Expression, F, Q
from django.utils.translation import gettext_lazy as _


class AnyOf(Expression):
    """The condition `column = ANY('{…}')`, the ids written into the query as one
    array constant, for a filter (`queryset.filter(AnyOf("user", ids))`). Django writes
    `column IN (%s, %s, …)`, one placeholder per id, and psycopg splits a query with that
    many placeholders on every run, uncached: with the 1,111 users a search for "player12"
    finds among 100,000, most of the page's CPU. The planner gets the same `= ANY(array)`
    it makes of an IN list, with the values, so it plans as before; the ids are ints from
    the database, written with `int()`, never text from the request. Elsewhere than
    PostgreSQL, the IN list.

    Args: `column` (str, a field or lookup of the filtered model), `values` (ints)."""

    output_field = BooleanField()
    conditional = True

    def __init__(self, column, values):
        super().__init__()
        self.column = F(column)
        self.values = [int(value) for value in values]

    def get_source_expressions(self):
        return [self.column]

    def set_source_expressions(self, exprs):
        (self.column,) = exprs

    def as_sql(self, compiler, connection):
        sql, params = compiler.compile(self.column)
        if connection.vendor != "postgresql":
            if not self.values:
                return "1 = 0", []
            return f"{sql} IN ({', '.join(['%s'] * len(self.values))})", [*params, *self.values]
        array = ",".join(str(value) for value in self.values)
        # untyped: PostgreSQL reads the literal as an array of the column's own type
        return f"{sql} = ANY('{{{array}}}')", params


def users_named(term):
    """Ids (list of int) of the users whose user name contains `term` (str), any case."""
    return list(get_user_model().objects.filter(username__icontains=term).values_list("pk", flat=True))


class SearchByUserName:
    """ModelAdmin mixin: the search box finds the rows of the users whose user name
    contains the term (`user_field`, the lookup from the model to its user) and the rows
    whose `word_fields` contain it, any case."""

    user_field = "user"
    word_fields = ()
    search_fields = ("user__username",)  # shows the box; the search itself is `get_search_results`
    search_help_text = _("A player's user name, or part of it.")

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        if not term:
            return queryset, False
        found = Q(AnyOf(self.user_field, users_named(term)))
        for field in self.word_fields:
            found |= Q(**{f"{field}__icontains": term})
        return queryset.filter(found), False
