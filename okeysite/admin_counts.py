"""Admin lists of big tables that cost the same with a thousand rows or thirty million.

Django's changelist counts its rows twice on every page (the filtered count for the
paginator, the full count beside it), and `COUNT(*)` reads the whole table: seconds on
the move log. `LargeTableAdmin` drops the second count (`show_full_result_count`) and
pages with `EstimatedCountPaginator`: an unfiltered list takes PostgreSQL's row estimate
of the table (kept by autovacuum's ANALYZE), a filtered or searched one is counted up to
`COUNT_CAP` rows. Both only size the page links; the rows shown are exact.
"""
from django.core.paginator import Paginator
from django.db import connections
from django.utils.functional import cached_property

from okeysite.admin_rows import QuickActionCheckbox

COUNT_CAP = 10_000  # rows counted at most in a filtered list (its last page link stops there)
ESTIMATE_ABOVE = 100_000  # below this many estimated rows, an exact count is cheap


def estimated_rows(model, using="default"):
    """PostgreSQL's estimate (int rows) of `model`'s table, or None elsewhere (SQLite) or
    before the table was ever analysed."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = %s::regclass", [model._meta.db_table])
        row = cursor.fetchone()
    return int(row[0]) if row and row[0] >= 0 else None


class EstimatedCountPaginator(Paginator):
    """A Paginator over a queryset whose `count` never reads a big table whole: the
    table's estimate when the list is unfiltered and big (`ESTIMATE_ABOVE`), else an
    exact count up to `COUNT_CAP` + 1."""

    @cached_property
    def count(self):
        query = self.object_list.query
        if not query.where and not query.distinct:
            estimate = estimated_rows(self.object_list.model, self.object_list.db)
            if estimate is not None and estimate >= ESTIMATE_ABOVE:
                return estimate
        # without the list's order: counting the first rows found needs no sort, where
        # the ordered subquery sorted every matching row before taking the first ones
        return self.object_list.order_by()[:COUNT_CAP + 1].count()


class LargeTableAdmin(QuickActionCheckbox):
    """Mixin for the ModelAdmin of a table that grows with play (tables, matches, rounds,
    moves, chat lines, ratings): one estimated or capped count per page, 50 rows a page,
    each row's checkbox written directly (`QuickActionCheckbox`)."""

    show_full_result_count = False
    paginator = EstimatedCountPaginator
    # Django's changelist spends most of a page's time formatting its cells (about 1 ms
    # of Python per row of these lists): 50 rows a page instead of 100 halves it.
    list_per_page = 50
