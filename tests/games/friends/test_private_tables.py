"""Private tables: created from the lobby form, hidden from the lobby, joined with the
invite link (after a login), players removed by the creator before the start."""
import pytest
from django.urls import reverse

from games.errors import TableError
from games.models import Seat, Table
from games.play import tables
from games.snapshot import open_tables

pytestmark = pytest.mark.django_db


def private_table(user):
    return tables.create_table(user, "okey51", {"rounds": 1}, mode="online", private=True)


def test_a_private_table_has_an_invite_code_and_is_not_listed(alice):
    public = tables.create_table(alice, "okey51", {"rounds": 1}, mode="online")
    hidden = private_table(alice)
    assert public.invite_code == "" and not public.private
    assert hidden.private and len(hidden.invite_code) == tables.INVITE_LENGTH
    assert set(hidden.invite_code) <= set(tables.INVITE_ALPHABET)
    listed = [t["id"] for t in open_tables()]
    assert public.pk in listed and hidden.pk not in listed


def test_a_solo_table_is_never_private(alice):
    table = tables.create_table(alice, "okey51", {"rounds": 1}, mode="solo", private=True)
    assert not table.private and table.invite_code == ""


def test_joining_a_private_table_needs_its_code(alice, bob):
    table = private_table(alice)
    for wrong in (None, "", "WRONG123", table.invite_code[:-1]):
        with pytest.raises(TableError) as err:
            tables.join_table(bob, table.pk, invite=wrong)
        assert err.value.code == "invite_needed"
    assert not Seat.objects.filter(table=table, user=bob).exists()
    seat = tables.join_table(bob, table.pk, invite=table.invite_code.lower())
    assert seat.user == bob and seat.index == 2  # facing the creator


def test_the_invite_link_asks_a_visitor_to_log_in_first_then_seats_them(client, alice, bob):
    table = private_table(alice)
    link = reverse("table_invite", args=[table.invite_code])
    response = client.get(link)
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert response["Location"].endswith("?next=" + link)
    client.force_login(bob)
    response = client.get(link)
    assert response.status_code == 302 and response["Location"] == reverse("table", args=[table.pk])
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="join-btn"' in page
    assert client.post(reverse("table_join", args=[table.pk])).status_code == 302
    assert Seat.objects.get(table=table, user=bob).index == 2


def test_a_private_table_page_without_the_invite_is_not_found(client, alice, bob):
    table = private_table(alice)
    client.force_login(bob)
    response = client.get(reverse("table", args=[table.pk]))
    assert response.status_code == 404
    client.post(reverse("table_join", args=[table.pk]))
    assert not Seat.objects.filter(table=table, user=bob).exists()


def test_a_wrong_invite_code_is_not_found(client, bob):
    client.force_login(bob)
    response = client.get(reverse("table_invite", args=["NOSUCH22"]))
    assert response.status_code == 302 and response["Location"] == reverse("lobby")


def test_the_creator_sees_the_invite_link_and_may_remove_a_player(client, alice, bob, carol):
    table = private_table(alice)
    tables.join_table(bob, table.pk, invite=table.invite_code)
    client.force_login(alice)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert f"/invite/{table.invite_code}/" in page and 'id="invite-copy"' in page
    assert reverse("table_remove", args=[table.pk, 2]) in page
    client.post(reverse("table_remove", args=[table.pk, 2]))
    assert Seat.objects.get(table=table, index=2).user is None
    # only the creator removes, only before the start, never themselves or a free seat
    tables.join_table(carol, table.pk, invite=table.invite_code)
    for who, index, code in [(carol, 0, "not_creator"), (alice, 0, "cannot_remove_self"), (alice, 1, "seat_empty")]:
        with pytest.raises(TableError) as err:
            tables.remove_player(who, table.pk, index)
        assert err.value.code == code
    tables.start_match(alice, table.pk)
    with pytest.raises(TableError) as err:
        tables.remove_player(alice, table.pk, 2)
    assert err.value.code == "table_not_open"


def test_free_seats_of_a_private_table_get_computers_at_the_start(alice, bob):
    table = private_table(alice)
    tables.join_table(bob, table.pk, invite=table.invite_code)
    tables.start_match(alice, table.pk)
    seats = list(Seat.objects.filter(table=table).order_by("index"))
    assert [s.user for s in seats] == [alice, None, bob, None]
    assert [bool(s.bot_level) for s in seats] == [False, True, False, True]
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_the_lobby_form_creates_a_private_table(client, alice):
    client.force_login(alice)
    response = client.post(reverse("table_create"), {
        "ruleset": "okey51", "mode": "online", "play": "individual", "rounds": "1", "move_time": "30",
        "bot_level": "normal", "joker_value": "30", "rami_length": "official", "private": "on"})
    table = Table.objects.get(creator=alice)
    assert response["Location"] == reverse("table", args=[table.pk])
    assert table.private and table.invite_code


@pytest.mark.parametrize("lang, words", [
    ("fr", ["Copier le lien", "Règles de", "Jouer maintenant"]),
    ("es", ["Copiar el enlace", "Reglas de", "Jugar ahora"]),
    ("tr", ["Bağlantıyı kopyala", "kuralları", "Hemen oyna"]),
    ("en", ["Copy the link", "Rules of", "Play now"]),
])
def test_the_invite_and_play_now_speak_four_languages(client, alice, lang, words):
    table = private_table(alice)
    client.force_login(alice)
    client.cookies["django_language"] = lang
    page = "".join(client.get(path).content.decode() for path in (reverse("table", args=[table.pk]), reverse("lobby")))
    for word in words:
        assert word in page


def test_an_invite_in_the_address_is_remembered_for_the_seat(client, alice, bob):
    table = private_table(alice)
    client.force_login(bob)
    assert client.get(reverse("table", args=[table.pk]) + f"?invite={table.invite_code}").status_code == 200
    client.post(reverse("table_join", args=[table.pk]))
    assert Seat.objects.filter(table=table, user=bob).exists()


def test_an_invite_code_typed_in_the_lobby_opens_the_table(client, alice, bob):
    table = private_table(alice)
    client.force_login(bob)
    assert 'id="invite-code-form"' in client.get(reverse("lobby")).content.decode()
    typed = f" {table.invite_code.lower()[:4]}-{table.invite_code[4:]} "  # spaces, a dash, lower case
    response = client.get(reverse("invite_code"), {"code": typed})
    assert response["Location"] == reverse("table_invite", args=[table.invite_code])
    assert client.get(response["Location"])["Location"] == reverse("table", args=[table.pk])
    assert client.get(reverse("invite_code"), {"code": ""})["Location"] == reverse("lobby")


def test_a_removed_player_is_told_and_kept_out_of_the_seats(client, alice, bob, carol):
    table = private_table(alice)
    tables.join_table(bob, table.pk, invite=table.invite_code)
    tables.remove_player(alice, table.pk, 2)
    # the invite link still lets bob watch, but the page says why there is no seat for him
    client.force_login(bob)
    client.get(reverse("table_invite", args=[table.invite_code]))
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'id="removed-notice"' in page and "removed you from this table" in page
    assert 'id="join-form"' not in page and 'id="leave-btn"' not in page
    with pytest.raises(TableError) as err:
        tables.join_table(bob, table.pk, invite=table.invite_code)
    assert err.value.code == "removed_from_table"
    client.post(reverse("table_join", args=[table.pk]))
    assert not Seat.objects.filter(table=table, user=bob).exists()
    followed = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "removed you from this table" in followed
    # the others still join as before
    assert tables.join_table(carol, table.pk, invite=table.invite_code).index == 2


def test_the_login_page_after_an_invite_link_says_why_it_asks(client, alice):
    """A visitor who follows a friend's link lands on the login form: it says that a table
    waits for them there, rather than a bare form that reads like a wrong turn."""
    table = private_table(alice)
    link = reverse("table_invite", args=[table.invite_code])
    page = client.get(link, follow=True).content.decode()
    assert 'name="login"' in page or 'name="password"' in page
    assert "You are invited to a table of Okey 51" in page
