"""Keyset pages of a ranking (`leaderboards.pages`): walking the next links from the
first page, or the previous links from the last, gives every ranked row exactly once, in
the ranking's order with its rank, and a late page costs the queries of an early one."""
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leaderboards import ratings
from leaderboards.models import Rating
from leaderboards.pages import PER_PAGE

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<td class="num">(\d+)</td>\s*<td[^>]*><a href="/players/([^/]+)/')


def ranked(count, first=0):
    """`count` established okey51 ratings; every third pair has the same mu and sigma, so
    equal ratings are ordered by user id. Returns the user names in ranking order."""
    User = get_user_model()
    users = User.objects.bulk_create([User(username=f"r{first + i:04d}") for i in range(count)])
    Rating.objects.bulk_create([
        Rating(user=user, ruleset="okey51", mu=30 - (i - i % 3 // 2) * 0.01, sigma=2,
               matches=ratings.PROVISIONAL_MATCHES) for i, user in enumerate(users, start=first)])
    ordered = Rating.objects.filter(ruleset="okey51").order_by("-ordinal", "user_id")
    return list(ordered.values_list("user__username", flat=True))


def walk(client, query, link):
    """The (rank, user name) rows of every page from `query` on, following `link` ("Next"
    or "Previous"); pages in the order walked. Returns (list of pages, queries of each)."""
    url = reverse("leaderboard", args=["okey51"])
    pages, costs = [], []
    while True:
        with CaptureQueriesContext(connection) as ctx:
            html = client.get(f"{url}?{query}").content.decode()
        costs.append(len(ctx.captured_queries))
        pages.append([(int(rank), name) for rank, name in ROW.findall(html.split('class="card provisional"')[0])])
        found = re.search(rf'href="\?([^"]*)">{link}<', html)
        if not found:
            return pages, costs
        query = found.group(1).replace("&amp;", "&")


def test_the_next_links_give_every_ranked_player_once_in_order():
    names = ranked(3 * PER_PAGE + 7)
    pages, _costs = walk(Client(), "", "Next")
    rows = [row for page in pages for row in page]
    assert rows == list(enumerate(names, start=1))
    assert [len(page) for page in pages] == [PER_PAGE] * 3 + [7]


def test_the_previous_links_from_the_last_page_give_every_ranked_player_once_in_order():
    names = ranked(3 * PER_PAGE + 7)
    pages, _costs = walk(Client(), "last=1", "Previous")
    rows = [row for page in reversed(pages) for row in page]
    assert rows == list(enumerate(names, start=1))
    assert len(pages[0]) == PER_PAGE  # the last page is full, the first holds the rest


def test_a_page_that_starts_at_a_player_ranks_them_where_they_stand():
    names = ranked(2 * PER_PAGE)
    start = Rating.objects.get(user__username=names[30])
    pages, _costs = walk(Client(), f"at={start.pk}", "Next")
    assert pages[0][0] == (31, names[30])
    assert [row for page in pages for row in page] == list(enumerate(names, start=1))[30:]


def test_an_unknown_page_start_gives_the_first_page():
    names = ranked(PER_PAGE + 1)
    pages, _costs = walk(Client(), "at=999999", "Next")
    assert pages[0][0] == (1, names[0])


def test_a_late_page_costs_the_queries_of_an_early_one_whatever_the_ranking_size():
    ranked(2 * PER_PAGE)
    _pages, small = walk(Client(), "", "Next")
    ranked(6 * PER_PAGE, first=2 * PER_PAGE)
    _pages, big = walk(Client(), "", "Next")
    assert len(big) == 8
    # the first page counts no rank ahead of it; every later page costs the same
    assert big[0] == small[0] and set(big[1:]) == {small[1]}
    _pages, back = walk(Client(), "last=1", "Previous")
    # the last page reads no page start; the pages before it cost what the later pages do
    assert back[0] < small[1] and set(back[1:-1]) == {small[1]} and back[-1] <= small[1]


def test_the_solo_records_pages_give_every_public_record_once_lowest_total_first(make_user):
    from accounts.player_settings import PlayerSettings
    from leaderboards.models import SoloRecord
    from tests.leaderboards.helpers import finished_match

    records = []
    for i in range(PER_PAGE + 6):
        user = make_user(f"s{i:02d}")
        match = finished_match([user, None, None, None], [i % 7, 500, 600, 700], mode="solo", minutes=i)
        records.append(SoloRecord.objects.create(user=user, ruleset="okey51", match=match, total=i % 7, rounds=1,
                                                 played=match.finished))
        PlayerSettings.objects.create(user=user, public_solo_records=i != 3)  # one hides their record
    # equal totals: the earlier record first
    ranked_records = sorted(records, key=lambda r: (r.total, r.played, r.pk))
    names = [r.user.username for r in ranked_records if r.user.username != "s03"]
    url = reverse("solo_records", args=["okey51"])
    client, rows, query = Client(), [], ""
    while True:
        html = client.get(f"{url}?{query}").content.decode()
        rows += [(int(rank), name) for rank, name in ROW.findall(html)]
        found = re.search(r'href="\?([^"]*)">Next<', html)
        if not found:
            break
        query = found.group(1).replace("&amp;", "&")
    assert rows == list(enumerate(names, start=1))
    last = client.get(f"{url}?last=1").content.decode()
    assert [name for _rank, name in ROW.findall(last)] == names[-PER_PAGE:]
