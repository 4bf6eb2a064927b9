"""Pages of a ranking by keyset: a page starts at a row (`?at=<id>`), ends before one
(`?before=<id>`) or is the last (`?last=1`), and is read from the ranking's index from
that row on. An OFFSET page read and dropped every row ahead of it, so the last page of a
big ranking cost the whole ranking; here every page costs 25 rows of the index, plus one
count of the rows ahead for the rank numbers of a page that is not the first.
"""
from dataclasses import dataclass

from django.db.models import Q

PER_PAGE = 25


@dataclass
class RankingPage:
    """One page of a ranking: its `rows` (model instances in order, each with `rank`),
    and the query strings (without `?`) of the previous and next pages, or ''."""

    rows: list
    keep: str = ""  # the list's own parameters, before the page's, in every link
    previous: str = ""
    next: str = ""

    @property
    def has_other_pages(self):
        return bool(self.previous or self.next)


def _column(name):
    return name.lstrip("-")


def beyond(order, row, forward=True):
    """The `Q` of the rows after `row` in `order` (field names, "-" for descending, the
    last one unique), or before it when `forward` is False."""
    found = Q(pk__in=[])
    equal = {}
    for name in order:
        column = _column(name)
        descending = name.startswith("-")
        lookup = "lt" if descending == forward else "gt"
        found |= Q(**equal, **{f"{column}__{lookup}": getattr(row, column)})
        equal[column] = getattr(row, column)
    return found


def _reverse(order):
    return [name[1:] if name.startswith("-") else f"-{name}" for name in order]


def ranking_page(queryset, order, params, *related, keep=""):
    """The page of the ranking `queryset` (its filters; ordered here by `order`, field
    names with "-" for descending, the last one unique such as the pk) that the query
    `params` (a QueryDict: `at`, `before` or `last`) ask for, else the first page. Rows
    are read with their `related` rows. `keep` (str) is put before the page's own
    parameter in the links (e.g. "period=month&"). An `at`/`before` id that is not in the
    ranking gives the first page. Returns a RankingPage."""
    keys = ["pk", *{_column(name) for name in order} - {"pk"}]
    anchor_id, forward, inclusive = None, True, True
    if params.get("last"):
        forward = False
    elif params.get("before", "").isdigit():
        anchor_id, forward, inclusive = int(params["before"]), False, False
    elif params.get("at", "").isdigit():
        anchor_id = int(params["at"])
    queryset = queryset.select_related(None)  # the keys alone; the page's rows are read with `related`
    anchor = None
    if anchor_id is not None:
        anchor = queryset.filter(pk=anchor_id).only(*keys).first()
        if anchor is None:
            forward, inclusive = True, True
    picked = queryset.order_by(*(order if forward else _reverse(order))).only(*keys)
    if anchor is not None:
        after = beyond(order, anchor, forward)
        picked = picked.filter(after | Q(pk=anchor.pk) if inclusive else after)
    picked = list(picked[:PER_PAGE + 1])
    beyond_page = picked[PER_PAGE] if len(picked) > PER_PAGE else None  # the next (or previous) page's edge
    picked = picked[:PER_PAGE]
    if not forward:
        picked.reverse()
    found = queryset.model.objects.select_related(*related).in_bulk([row.pk for row in picked])
    rows = [found[row.pk] for row in picked]
    page = RankingPage(rows, keep)
    if not rows:
        return page

    def ahead(row):  # rows before `row` in the ranking: the rank numbers of a later page
        return queryset.filter(beyond(order, row, False)).count()

    if forward:
        page.next = f"{keep}at={beyond_page.pk}" if beyond_page else ""
        start = 1 if anchor is None else ahead(rows[0]) + 1
        page.previous = f"{keep}before={rows[0].pk}" if start > 1 else ""
    else:
        page.previous = f"{keep}before={rows[0].pk}" if beyond_page else ""
        page.next = f"{keep}at={anchor.pk}" if anchor is not None else ""
        start = ahead(rows[0]) + 1 if beyond_page else 1
    for rank, row in enumerate(rows, start=start):
        row.rank = rank
    return page

