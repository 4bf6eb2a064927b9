"""Leaderboard, solo records, profile and settings pages, rendered from stored matches."""
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.player_settings import PlayerSettings
from leaderboards import ratings, record_result
from leaderboards.chart import rating_svg
from leaderboards.models import Rating, SoloRecord
from leaderboards.pages import PER_PAGE
from tests.leaderboards.helpers import BASE_TIME, finished_match

pytestmark = pytest.mark.django_db


def rated_matches(players, count):
    """`count` online okey51 matches between `players` (the first wins each)."""
    for minute in range(count):
        seats = (players + [None] * 4)[:4]
        record_result(finished_match(seats, [10, 20, 30, 40], minutes=minute))


def solo_match(user, total, ruleset="okey17", minutes=0):
    match = finished_match([user, None, None, None], [total, 500, 600, 700], ruleset=ruleset, mode="solo",
                           minutes=minutes)
    from games.models import Move, Round

    rnd = Round.objects.create(match=match, index=0, server_seed="s", commitment="c", initial_position={},
                               final_position={"seats": [{"opened": "melds"}, {}, {}, {}]},
                               totals=[total, 500, 600, 700], penalties=[0, 0, 0, 0], scores=[total, 0, 0, 0],
                               finished=match.finished)
    Move.objects.create(round=rnd, number=1, seat=0, action={"type": "draw"}, version=1)
    return match


def test_the_leaderboard_ranks_established_players_and_lists_provisional_ones_apart(client, alice, bob, carol):
    rated_matches([alice, bob], ratings.PROVISIONAL_MATCHES)
    rated_matches([carol, alice], 1)
    client.force_login(bob)
    html = client.get(reverse("leaderboard", args=["okey51"])).content.decode()
    ranking, provisional = html.split('<table class="list ranking">')[1].split('class="card provisional"')
    assert ranking.index(">alice<") < ranking.index(">bob<") and ">carol<" not in ranking
    assert ">carol<" in provisional
    assert re.search(r'<tr class="me" id="me">\s*<td class="num">2</td>', ranking)
    assert "Your position: 2" in html


def test_the_leaderboard_paginates_and_links_to_my_page(client, make_user):
    users = [make_user(f"p{i:02d}") for i in range(PER_PAGE + 3)]
    for i in range(0, len(users) - 1, 2):
        rated_matches([users[i], users[i + 1]], ratings.PROVISIONAL_MATCHES)
    rated_matches([users[-1], users[0]], ratings.PROVISIONAL_MATCHES)
    url = reverse("leaderboard", args=["okey51"])
    first = client.get(url).content.decode()
    assert first.count('<td class="num">') >= PER_PAGE and "Last page" in first
    second = client.get(url + "?" + re.search(r'href="\?([^"]*)">Next<', first).group(1)).content.decode()
    assert re.search(r'<td class="num">26</td>', second)
    loser = users[25]  # lost every match; last of the equal losers by id
    client.force_login(loser)
    mine = client.get(url).content.decode()
    own = Rating.objects.get(user=loser, ruleset="okey51")
    assert f"at={own.pk}#me" in mine
    at_me = client.get(f"{url}?at={own.pk}").content.decode()
    assert re.search(r'<tr class="me" id="me">\s*<td class="num">\d+</td>', at_me)


def test_the_period_filter_keeps_players_who_played_in_it(client, alice, bob, carol):
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Match

    def played(players, ended):
        for minute in range(ratings.PROVISIONAL_MATCHES):
            match = finished_match((players + [None] * 4)[:4], [10, 20, 30, 40])
            Match.objects.filter(pk=match.pk).update(finished=ended - timedelta(seconds=minute))
            record_result(match)

    played([carol, bob], timezone.now() - timedelta(days=60))
    played([alice, bob], timezone.now())
    week = client.get(reverse("leaderboard", args=["okey51"]) + "?period=week").content.decode()
    assert ">alice<" in week and ">bob<" in week and ">carol<" not in week
    everything = client.get(reverse("leaderboard", args=["okey51"])).content.decode()
    assert ">carol<" in everything


def test_an_unknown_ruleset_is_404(client):
    assert client.get("/rankings/chess/").status_code == 404


def test_solo_records_keep_the_best_total_and_are_private_by_default(client, alice, bob):
    solo_match(alice, 900, minutes=1)
    record_result(solo_match(alice, 900, minutes=1))
    record_result(solo_match(alice, 350, minutes=2))
    record_result(solo_match(alice, 600, minutes=3))
    assert SoloRecord.objects.get(user=alice, ruleset="okey17").total == 350
    url = reverse("solo_records", args=["okey17"])
    assert ">alice<" not in client.get(url).content.decode()
    client.force_login(alice)
    own = client.get(url).content.decode()
    assert "Your record: 350 points." in own and "private" in own
    PlayerSettings.objects.update_or_create(user=alice, defaults={"public_solo_records": True})
    client.force_login(bob)
    public = client.get(url).content.decode()
    assert ">alice<" in public and '<td class="num">350</td>' in public


def test_a_solo_match_the_computer_played_sets_no_record(alice):
    from games.models import Move

    match = solo_match(alice, 100)
    Move.objects.filter(round__match=match).update(actor=Move.Actor.TIMEOUT)
    assert record_result(match) is None
    assert not SoloRecord.objects.exists()


def test_the_profile_shows_ratings_a_chart_figures_and_recent_matches(client, alice, bob):
    rated_matches([alice, bob], 3)
    record_result(solo_match(alice, 300))  # the figures count the recorded matches
    html = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "<svg" in html and "polyline" in html and "series-okey51" in html
    assert re.search(r'stats-okey17.*?<td class="num">1</td>', html, re.S)  # one okey17 match played
    assert html.count(reverse("match", args=[1]).rsplit("/", 3)[0]) >= 1
    assert "Solo records" not in html  # not public, not the owner
    client.force_login(alice)
    own = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert "Settings" in own


def test_settings_save_the_display_name_language_and_defaults(client, alice, bob):
    client.force_login(alice)
    url = reverse("player_settings")
    response = client.post(url, {"display_name": "Ali Okey", "language": "fr", "public_solo_records": "on",
                                 "default_ruleset": "okey17", "default_move_time": "45",
                                 "default_bot_level": "strong"})
    assert response.status_code == 302 and response.cookies["django_language"].value == "fr"
    prefs = PlayerSettings.objects.get(user=alice)
    assert (prefs.display_name, prefs.language, prefs.public_solo_records) == ("Ali Okey", "fr", True)
    assert prefs.table_defaults == {"ruleset": "okey17", "move_time": 45, "assisted": False, "bot_level": "strong"}
    # a display name may not impersonate another user name
    response = client.post(url, {"display_name": "BOB", "language": "", "default_move_time": "30",
                                 "default_bot_level": "normal"})
    assert response.status_code == 200
    assert PlayerSettings.objects.get(user=alice).display_name == "Ali Okey"


@pytest.mark.parametrize("language, text", [("tr", "Geçici oyuncular"), ("fr", "Joueurs provisoires"),
                                            ("es", "Jugadores provisionales"), ("en", "Provisional players")])
def test_the_leaderboard_speaks_the_chosen_language(client, settings, language, text):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    assert text in client.get(reverse("leaderboard", args=["rami"])).content.decode()


def test_the_saved_language_applies_after_logging_in(client, alice):
    PlayerSettings.objects.create(user=alice, language="tr")
    client.force_login(alice)
    response = client.get(reverse("leaderboard", args=["okey51"]))
    assert "Geçici oyuncular" in response.content.decode()
    assert response.cookies["django_language"].value == "tr"


def test_players_see_ruleset_display_names(alice, bob):
    match = finished_match([alice, bob, None, None], [10, 20, 30, 40], ruleset="okey17")
    profile = Client().get("/players/alice/").content.decode()
    assert "<td>Okey 17</td>" in profile and "<td>okey17</td>" not in profile
    page = Client().get(f"/table/{match.table_id}/match/").content.decode()
    assert "(Okey 17)" in page and "(okey17)" not in page
    svg = rating_svg({"rami": [(BASE_TIME, 1500), (BASE_TIME, 1510)]})
    assert ">Rami</text>" in svg and ">rami</text>" not in svg


def test_the_rankings_show_each_players_face(client, alice, bob):
    rated_matches([alice, bob], ratings.PROVISIONAL_MATCHES)
    html = client.get(reverse("leaderboard", args=["okey51"])).content.decode()
    for user in (alice, bob):
        assert re.search(rf'<img class="face face-small" src="/faces/{user.pk}/"[^>]*>{user.username}</a>', html)
    assert client.get(f"/faces/{alice.pk}/")["Content-Type"] == "image/svg+xml"
