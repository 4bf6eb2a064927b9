"""The lobby and match pages: per-ruleset lobby options, teams, taking a free seat, the
match page's move log in words with the verifiable deals, the favicon."""
import json

import pytest
from django.urls import reverse

from games.models import Game, Move, Round, Table
from games.play import tables, turns

pytestmark = pytest.mark.django_db(transaction=True)

BASE = {"mode": "solo", "move_time": "30", "bot_level": "easy"}


def test_the_lobby_offers_the_three_rulesets_with_their_own_options(client, alice):
    client.force_login(alice)
    page = client.get("/").content.decode()
    for ruleset in ("okey51", "okey17", "rami"):
        assert f'value="{ruleset}"' in page
    for field in ("play", "rami_length", "rami_target", "joker_value", "double_one_turn"):
        assert f'name="{field}"' in page
    assert 'data-rulesets="rami"' in page and 'data-rulesets="okey51"' in page
    assert 'data-rulesets="okey17">Okey 17 is played over 7 rounds.' in page


def test_each_lobby_field_belongs_to_the_rulesets_whose_options_it_sets():
    from games.forms import field_rulesets

    assert field_rulesets() == {
        "play": "okey51", "rounds": "okey51", "doubling": "okey51", "rami_length": "rami", "rami_rounds": "rami",
        "rami_target": "rami", "joker_value": "rami", "double_one_turn": "rami", "fixed_rounds": "okey17",
    }


@pytest.mark.parametrize("language", ["en", "fr", "es", "tr"])
@pytest.mark.parametrize("ruleset", ["okey51", "okey17", "rami"])
def test_no_two_fields_the_table_form_shows_share_a_label(language, ruleset):
    # e.g. the game (the ruleset) and how it is played (individual or teams)
    from django.utils import translation

    from games.forms import OPTION_FIELDS, CreateTableForm, uses_field

    with translation.override(language):
        labels = [str(field.label) for name, field in CreateTableForm().fields.items()
                  if name not in OPTION_FIELDS or uses_field(ruleset, name)]
    assert len(set(labels)) == len(labels), labels


@pytest.mark.parametrize("post, ruleset, options", [
    ({"ruleset": "okey51", "play": "teams", "rounds": "3", "doubling": "on"}, "okey51",
     {"doubling": True, "teams": True, "rounds": 3}),
    ({"ruleset": "okey17", "play": "teams", "rounds": "3"}, "okey17", {"rounds": 7}),
    ({"ruleset": "rami", "rami_length": "target", "rami_target": "300", "joker_value": "50",
      "double_one_turn": "on", "play": "teams"}, "rami",
     {"rounds": None, "target": 300, "joker_value": 50, "double_one_turn": True}),
    ({"ruleset": "rami", "rami_length": "rounds", "rami_rounds": "2", "joker_value": "30"}, "rami",
     {"rounds": 2, "target": None, "joker_value": 30, "double_one_turn": False}),
    ({"ruleset": "rami", "rami_length": "official"}, "rami",
     {"rounds": None, "target": None, "joker_value": 30, "double_one_turn": False}),
])
def test_each_ruleset_gets_only_its_options(client, alice, post, ruleset, options):
    client.force_login(alice)
    response = client.post(reverse("table_create"), dict(BASE, **post))
    table = Table.objects.get()
    assert response.status_code == 302 and table.ruleset == ruleset and table.options == options
    assert table.status == Table.Status.PLAYING


@pytest.mark.parametrize("post", [
    {"ruleset": "rami", "rami_length": "target"},  # no target score
    {"ruleset": "rami", "rami_length": "rounds", "rami_rounds": "0"},
    {"ruleset": "rami", "joker_value": "40"},
    {"ruleset": "okey51", "rounds": "2"},
])
def test_bad_per_ruleset_options_create_nothing(client, alice, post):
    client.force_login(alice)
    client.post(reverse("table_create"), dict(BASE, **post))
    assert not Table.objects.exists()


def test_the_rulesets_come_from_the_environment_list(client, alice, settings):
    settings.OKEY_RULESETS = ["okey17"]
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'value="okey17"' in page and 'value="rami"' not in page
    client.post(reverse("table_create"), dict(BASE, ruleset="rami"))
    assert not Table.objects.exists()


def test_take_a_seat_only_while_a_seat_is_free(client, alice, bob, carol, make_user):
    dave, erin = make_user("dave"), make_user("erin")
    table = tables.create_table(alice, "okey51", {}, mode="online")
    client.force_login(dave)
    assert client.get(reverse("table", args=[table.pk])).context["can_join"] is True
    for user in (bob, carol):
        tables.join_table(user, table.pk)
    tables.join_table(dave, table.pk)
    client.force_login(erin)
    assert client.get(reverse("table", args=[table.pk])).context["can_join"] is False


def test_the_favicon_is_linked_and_served(client):
    page = client.get("/").content.decode()
    assert 'rel="icon"' in page and "favicon.svg" in page


def scripted_round_table(alice, bob):
    """An online okey51 table (alice seat 0, bob seat 1) played through the scripted round
    of tests.games.play.test_penalty_events."""
    from tests.games.play.test_penalty_events import OKEY51, SCRIPT

    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", move_time=30)
    tables.join_table(bob, table.pk, seat_index=1)
    tables.start_match(alice, table.pk)
    game = Game.objects.get(table=table)
    Round.objects.filter(pk=game.round_id).update(initial_position=OKEY51)
    Game.objects.filter(pk=game.pk).update(position=OKEY51)
    for action in SCRIPT:
        user = alice if action["seat"] == 0 else bob
        version = Game.objects.get(pk=game.pk).version
        assert turns.submit_action(user, table.pk, {k: v for k, v in action.items() if k != "seat"}, version).ok
    return table


def test_the_match_page_tells_the_moves_in_words_and_how_to_check_the_deal(client, alice, bob):
    table = scripted_round_table(alice, bob)
    rnd = Round.objects.get(match__table=table)
    assert Move.objects.filter(round=rnd).count() == 4
    client.force_login(alice)
    page = client.get(reverse("match", args=[table.pk])).content.decode()
    assert "{&#x27;" not in page and "{'" not in page  # no dict reprs
    assert "alice added blue 8 to meld 1" in page and "alice discarded blue 4" in page
    assert "bob took the discard, then: bob added blue 4 to meld 1" in page and "bob discarded black 1" in page
    assert "4 moves" in page
    assert rnd.server_seed in page and rnd.commitment in page and 'class="verify-btn' in page
    assert f'href="/table/{table.pk}/record/"' in page and 'href="/fairdeal.py"' in page
    assert "penalty tile blue 4: 100" in page and "discard blue 4 taken by bob: 40" in page
    assert "Computer 3 · normal" in page and "Computer 4 · normal" in page


def test_the_match_page_in_spanish_counts_the_moves(client, alice, bob):
    table = scripted_round_table(alice, bob)
    client.force_login(alice)
    client.cookies["django_language"] = "es"
    page = client.get(reverse("match", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "4 jugadas" in page and "4 moves" not in page


def test_a_refused_move_that_costs_a_penalty_reads_as_refused(alice):
    from django.utils import translation

    from games.move_text import describe_move

    with translation.override("en"):
        text = describe_move("bob",
                             {"seat": 1, "type": "open", "melds": [["K10", "K11", "K12"], ["B13", "Y13", "R13"]]},
                             "below_threshold")
    assert text == ("bob opened with 2 melds (black 10, black 11, black 12 · blue 13, yellow 13, red 13)"
                    " — refused: below the threshold")


def test_the_move_log_names_tiles_in_the_readers_language_never_by_code(alice):
    from django.utils import translation

    from games.move_text import describe_move, describe_penalty

    with translation.override("en"):
        laid = describe_move("bob", {"seat": 1, "type": "meld", "tiles": ["R6=B5", "B6", "F", "J=K7"]})
        assert laid == "bob laid okey as blue 5, blue 6, false joker, joker as black 7"
    with translation.override("tr"):
        # K is black: a Turkish reader would take "K5" for kırmızı (red)
        text = describe_move("bob", {"seat": 1, "type": "discard", "tile": "K5"})
        assert "siyah 5" in text and "K5" not in text
        penalty = describe_penalty(["alice", "bob"], {"seat": 0, "amount": 100, "reason": "penalty_tile", "tile": "R5"})
        assert "kırmızı 5" in penalty and "R5" not in penalty


def test_team_tables_show_team_totals_on_the_match_page(client, alice):
    table = tables.create_table(alice, "okey51", {"teams": True}, mode="solo")
    client.force_login(alice)
    page = client.get(reverse("match", args=[table.pk])).content.decode()
    assert "alice + Computer 3 · normal" in page and "Computer 2 · normal + Computer 4 · normal" in page


@pytest.mark.django_db
def test_the_lobby_form_starts_from_the_players_default_table_options(client, alice):
    from accounts.player_settings import PlayerSettings

    settings_row = PlayerSettings.for_user(alice)
    settings_row.table_defaults = {"ruleset": "rami", "move_time": 60, "assisted": True, "bot_level": "strong"}
    settings_row.save()
    client.force_login(alice)
    form = client.get("/").context["form"]
    assert form.initial == {"ruleset": "rami", "move_time": 60, "assisted": True, "bot_level": "strong"}
    assert 'value="rami" selected' in form["ruleset"].as_widget()


def test_a_visitor_is_asked_to_log_in_or_sign_up_to_play_now(client, alice):
    page = client.get("/").content.decode()
    card = page[page.index('id="play-now"'):page.index('id="invite-code-form"')]
    assert f'id="play-now-login" href="{reverse("account_login")}">Log in to play</a>' in card
    assert f'href="{reverse("account_signup")}">Sign up</a>' in card
    client.cookies["django_language"] = "fr"
    assert "Connectez-vous pour jouer" in client.get("/").content.decode()
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'id="play-now-login"' not in page and 'data-ruleset="okey51"' in page


def test_the_lobby_holds_its_copy_of_the_too_many_sockets_message_in_the_readers_language(client):
    # shown if the lobby socket's 4429 comes without the error frame that carries it
    client.cookies["django_language"] = "tr"
    page = client.get("/").content.decode()
    assert '<p class="lobby-notice" id="lobby-notice" role="alert" hidden></p>' in page
    text = json.loads(page.split('id="lobby-i18n" type="application/json">')[1].split("</script>")[0])
    assert text["too_many_sockets"].startswith("Çok fazla açık bağlantı var")
