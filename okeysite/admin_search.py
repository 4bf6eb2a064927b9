"""The admin's search of a list by a player's user name and by words of its own columns,
through indexes on tables of any size.

A search over a joined column (`user__username`) with Django's default search is one
`WHERE` over the join: ORed with a column of the list itself, PostgreSQL reads both tables
whole. Here the users whose name contains the term (any case) are read first, through the
trigram index on `UPPER(username)` (`okeysite.search_indexes`), and the list is then
filtered on that short list of ids, ORed with its own columns' trigram-indexed `icontains`.
"""
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


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
        found = Q(**{f"{self.user_field}__in": users_named(term)})
        for field in self.word_fields:
            found |= Q(**{f"{field}__icontains": term})
        return queryset.filter(found), False
