"""A private table's pages give nothing away: to anyone neither seated, invited nor staff,
every per-table URL (the table, its match, record, replay and replay frames, and the
POST actions) answers exactly as it does for a table number that does not exist — the
same status, the same page — while the players, staff and holders of the invite see them."""
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Table
from games.play import tables
from tests.games.play.helpers import play_out

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = ("table", "match", "match_record", "replay", "replay_frames")
ACTIONS = ("table_join", "table_leave", "table_start", "table_leave_match", "table_rematch", "table_rematch_answer")


@pytest.fixture(autouse=True)
def _own_cache_prefix(settings):
    """Invite codes tried count in the shared cache: this test's counts are its own."""
    caches = {name: dict(conf) for name, conf in settings.CACHES.items()}
    caches["default"]["KEY_PREFIX"] = f"okeysite-test-{uuid.uuid4().hex}"
    settings.CACHES = caches


def finished_private_table(alice, bob):
    """A private online okey51 table of one round, alice and bob seated, played to its end."""
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", move_time=30, private=True)
    tables.join_table(bob, table.pk, invite=table.invite_code)
    tables.start_match(alice, table.pk)
    play_out(table)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table


def missing_id():
    return (Table.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1000


def url(name, table_id, query=""):
    return reverse(name, args=[table_id]) + ("?round=1" if name == "replay_frames" else "") + query


def answer(client, name, table_id, method="get", query=""):
    """(status, where it sends, the page, the page it sends to), the address asked for
    written /table/<id>/ and the per-response CSRF token taken out: what a visitor can
    compare between two table numbers."""
    response = getattr(client, method)(url(name, table_id, query))
    location = response.get("Location", "")
    followed = client.get(location).content.decode() if location and response.status_code == 302 else ""

    def plain(text):
        text = re.sub(r'(csrfmiddlewaretoken" value=|csrfToken":\s*)"[^"]*"', r'\1""', text)
        for asked in (f"/table/{table_id}/", f"%2Ftable%2F{table_id}%2F"):  # the address asked for (login, language)
            text = text.replace(asked, "/table/<id>/")
        return text
    return response.status_code, plain(location), plain(response.content.decode()), plain(followed)


def visitors(carol):
    stranger = Client()
    stranger.force_login(carol)
    return {"logged out": Client(), "stranger": stranger}


def test_every_page_of_a_private_table_answers_as_a_missing_table(alice, bob, carol):
    table = finished_private_table(alice, bob)
    missing = missing_id()
    for who, client in visitors(carol).items():
        for name in PAGES:
            hidden, absent = answer(client, name, table.pk), answer(client, name, missing)
            assert hidden == absent, (who, name)
            assert hidden[0] == 404, (who, name)
            assert "alice" not in hidden[2] and "bob" not in hidden[2]


def test_every_action_on_a_private_table_answers_as_on_a_missing_table(alice, bob, carol):
    table = finished_private_table(alice, bob)
    missing = missing_id()
    for who, client in visitors(carol).items():
        for name in ACTIONS:
            hidden, absent = answer(client, name, table.pk, "post"), answer(client, name, missing, "post")
            assert hidden == absent, (who, name)
            assert "This table is private" not in hidden[3]
    stranger = visitors(carol)["stranger"]
    removes = [stranger.post(reverse("table_remove", args=[pk, 2])) for pk in (table.pk, missing)]
    assert [r.status_code for r in removes] == [302, 302]
    assert removes[0]["Location"] == removes[1]["Location"] == reverse("lobby")


def test_an_open_private_table_answers_as_a_missing_table(alice, carol):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online", private=True)
    missing = missing_id()
    for who, client in visitors(carol).items():
        assert answer(client, "table", table.pk) == answer(client, "table", missing), who
        assert answer(client, "table_join", table.pk, "post") == answer(client, "table_join", missing, "post"), who
        wrong = "?invite=WRONG234"
        assert (answer(client, "table", table.pk, query=wrong)
                == answer(client, "table", missing, query=wrong)), who
    assert not table.seats.filter(user=carol).exists()


def test_the_players_staff_and_invite_holders_see_every_page(alice, bob, carol, staff):
    table = finished_private_table(alice, bob)
    seated, moderator, invited = Client(), Client(), Client()
    seated.force_login(bob)
    moderator.force_login(staff)
    invited.force_login(carol)
    invited.get(reverse("table_invite", args=[table.invite_code]))
    anonymous_invited = Client()
    anonymous_invited.get(reverse("table_invite", args=[table.invite_code]))
    for who, client in {"seated": seated, "staff": moderator, "invite link": invited,
                        "invite link, logged out": anonymous_invited}.items():
        for name in PAGES:
            response = client.get(url(name, table.pk))
            assert response.status_code == 200, (who, name)
        assert "alice" in client.get(url("match", table.pk)).content.decode()
    # the code in the address works as the link does, once
    by_address = Client()
    by_address.force_login(carol)
    assert by_address.get(url("match", table.pk, f"?invite={table.invite_code}")).status_code == 200
    assert by_address.get(url("match_record", table.pk)).status_code == 200


def test_a_rematch_invitation_opens_the_private_rematch_table(alice, bob):
    from games.play import rematch

    table = finished_private_table(alice, bob)
    again = rematch.offer(alice, table.pk)
    assert again.private and str(bob.pk) in again.rematch_answers
    client = Client()
    client.force_login(bob)
    assert client.get(url("table", again.pk)).status_code == 200
