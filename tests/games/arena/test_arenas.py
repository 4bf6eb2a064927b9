"""Arenas on the real database: joining, the schedule, pairing the waiting players at
tables that start at once, scoring finished matches, and the pages."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import tasks
from games.arena import service
from games.arena.models import Arena, ArenaEntry, ArenaSchedule, ArenaTable
from games.models import Game, Seat, Table
from games.play import seeding
from leaderboards.recording import rated_teams
from tests.race import run_together

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ana", "ben", "cem", "dia", "eda")]


def running(ruleset="okey51", seats=4, **kwargs):
    return Arena.objects.create(name="Test arena", ruleset=ruleset, starts=timezone.now() - timedelta(minutes=1),
                                minutes=45, seats=seats, **kwargs)


def seated_tables(arena):
    return [(link.table, sorted(Seat.objects.filter(table=link.table, user__isnull=False)
                                .values_list("user__username", flat=True)))
            for link in ArenaTable.objects.filter(arena=arena).select_related("table").order_by("pk")]


def test_a_player_joins_once_and_is_in_one_running_arena_at_a_time(players):
    ana = players[0]
    first, second = running(), running("rami", seats=2)
    assert service.join(ana, first.pk).pk == service.join(ana, first.pk).pk
    with pytest.raises(service.ArenaError) as refused:
        service.join(ana, second.pk)
    assert refused.value.code == "arena_busy"
    service.withdraw(ana, first.pk)
    assert service.join(ana, second.pk).arena_id == second.pk
    late = Arena.objects.create(ruleset="okey51", starts=timezone.now() - timedelta(minutes=40), minutes=45)
    with pytest.raises(service.ArenaError) as over:
        service.join(players[1], late.pk)
    assert over.value.code == "arena_over"  # past the last pairing: no new table would seat them


def test_waiting_players_are_seated_four_at_a_table_and_the_match_starts(players):
    arena = running()
    for user in players[:4]:
        service.join(user, arena.pk)
    done = service.tick()
    assert done["seated"] == 4
    [(table, names)] = seated_tables(arena)
    assert names == ["ana", "ben", "cem", "dia"] and table.status == Table.Status.PLAYING
    assert table.move_time == arena.move_time and table.players == 4
    assert service.tick()["seated"] == 0  # they are playing: nobody is seated twice
    assert service.current_table(players[0], arena.pk) == table.pk


def test_an_arena_table_deals_once_its_players_pages_have_sent_their_seeds(players, settings):
    settings.OKEY_SEED_WINDOW, settings.OKEY_ARENA_SEED_WAIT = 3, 10
    arena = running(seats=2)
    ana, ben = players[:2]
    for user in (ana, ben):
        service.join(user, arena.pk)
    assert service.tick()["seated"] == 2
    [(table, _names)] = seated_tables(arena)
    game = Game.objects.get(table=table)
    assert table.seed_wait == 10 and game.deadline_kind == "seed" and game.position is None
    assert not seeding.submit_seed(ana, table.pk, 1, "ana's own").dealt
    assert seeding.submit_seed(ben, table.pk, 1, "ben's own").dealt
    assert Game.objects.select_related("round").get(table=table).round.client_seeds == ["ana's own", "ben's own"]


def test_paused_and_absent_players_are_not_seated(players):
    arena = running(seats=2)
    ana, ben, cem, dia = players[:4]
    for user in (ana, ben, cem, dia):
        service.join(user, arena.pk)
    service.pause(cem, arena.pk)
    ArenaEntry.objects.filter(user=dia).update(seen=timezone.now() - timedelta(minutes=1))
    service.tick()
    assert [names for _t, names in seated_tables(arena)] == [["ana", "ben"]]


def test_a_short_table_starts_with_computers_after_the_arena_wait(players):
    arena = running(bot_wait=20)
    ana, ben = players[:2]
    for user in (ana, ben):
        service.join(user, arena.pk)
    assert service.tick()["seated"] == 0
    ArenaEntry.objects.filter(arena=arena).update(joined=timezone.now() - timedelta(seconds=25))
    Arena.objects.filter(pk=arena.pk).update(starts=timezone.now() - timedelta(seconds=30))
    assert service.tick()["seated"] == 2
    [(table, names)] = seated_tables(arena)
    assert names == ["ana", "ben"]
    assert Seat.objects.filter(table=table, user__isnull=True).exclude(bot_level="").count() == 2


def test_a_finished_match_scores_by_place_among_the_humans_and_a_leaver_scores_nothing(players):
    arena = running(seats=4)
    for user in players[:4]:
        service.join(user, arena.pk)
    service.tick()
    [(table, _names)] = seated_tables(arena)
    seats = {s.user.username: s for s in Seat.objects.filter(table=table, user__isnull=False).select_related("user")}
    match = table.game.match
    totals = [0] * 4
    # okey51: the lowest total wins. dia has the best total but left the match.
    for name, total in (("ana", 30), ("ben", 80), ("cem", 150), ("dia", 10)):
        totals[seats[name].index] = total
    Seat.objects.filter(pk=seats["dia"].pk).update(left=True)
    match.totals, match.finished = totals, timezone.now()
    match.save(update_fields=["totals", "finished"])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    assert service.tick()["scored"] == 1
    got = {e.user.username: (e.score, e.matches, e.streak) for e in ArenaEntry.objects.select_related("user")}
    assert got == {"ana": (4, 1, 1), "ben": (2, 1, 0), "cem": (1, 1, 0), "dia": (0, 1, 0)}
    assert sorted(ArenaEntry.objects.get(user=players[0]).last_opponents) == sorted(u.pk for u in players[1:4])
    assert service.tick()["scored"] == 0  # scored once


def test_a_casual_arenas_matches_are_not_rated(players):
    arena = running(seats=2, rated=False)
    for user in players[:2]:
        service.join(user, arena.pk)
    service.tick()
    [(table, _names)] = seated_tables(arena)
    match = table.game.match
    match.totals, match.finished = [10, 40], timezone.now()
    match.save(update_fields=["totals", "finished"])
    assert rated_teams(match) is None
    Arena.objects.filter(pk=arena.pk).update(rated=True)
    assert rated_teams(match) is not None


def test_the_schedule_keeps_the_next_arena_of_each_ruleset_made_and_the_sweep_runs_it():
    ArenaSchedule.objects.create(ruleset="okey51", every_minutes=60)
    ArenaSchedule.objects.create(ruleset="rami", every_minutes=60, seats=2)
    ArenaSchedule.objects.create(ruleset="okey17", every_minutes=60, active=False)
    done = tasks.sweep()
    assert done["arenas"]["made"] == 2
    made = {a.ruleset: a for a in Arena.objects.all()}
    assert set(made) == {"okey51", "rami"} and made["rami"].seats == 2
    now = timezone.now()
    for arena in made.values():
        assert arena.starts > now and arena.starts - now <= timedelta(hours=1)
        assert (arena.starts.minute, arena.starts.second) == (0, 0)
    assert service.tick()["made"] == 0  # the next one of each is there


def test_two_sweeps_at_once_seat_each_player_once(players):
    arena = running(seats=2)
    for user in players[:4]:
        service.join(user, arena.pk)
    run_together(service.tick, 2)
    names = [n for _t, group in seated_tables(arena) for n in group]
    assert sorted(names) == ["ana", "ben", "cem", "dia"]


def test_the_arena_pages_in_the_players_language(client, players):
    arena = running(seats=2)
    client.force_login(players[0])
    page = client.get(reverse("arena", args=[arena.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Rejoindre l'arène" in text and "Deux victoires de suite" in text
    answer = client.post(reverse("arena_action", args=[arena.pk, "join"]), HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.status_code == 302 and ArenaEntry.objects.filter(arena=arena, user=players[0]).exists()
    ArenaEntry.objects.filter(user=players[0]).update(seen=timezone.now() - timedelta(hours=1))
    data = client.get(reverse("arena_standings", args=[arena.pk])).json()
    assert data["state"] == "running" and data["standings"][0]["user"] == "ana" and data["table"] is None
    assert ArenaEntry.objects.get(user=players[0]).seen > timezone.now() - timedelta(minutes=1)  # present again
    lobby = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Arenas" in lobby and reverse("arena", args=[arena.pk]) in lobby
    rules = client.get(reverse("rules_index"), HTTP_ACCEPT_LANGUAGE="tr").content.decode()
    assert "Üst üste iki galibiyet" in rules
    assert client.get(reverse("arena", args=[arena.pk + 99])).status_code == 404


def test_two_sweeps_at_once_make_the_next_arena_once():
    ArenaSchedule.objects.create(ruleset="okey17", every_minutes=60)
    made = run_together(service.make_scheduled, 4)
    assert sorted(made) == [0, 0, 0, 1] and Arena.objects.count() == 1


def test_an_arena_over_shows_its_podium_its_matches_and_the_winners_badge(client, players):
    arena = running(seats=2)
    ana, ben = players[:2]
    for user in (ana, ben):
        service.join(user, arena.pk)
    service.tick()
    [(table, _names)] = seated_tables(arena)
    match = table.game.match
    order = {s.user_id: s.index for s in Seat.objects.filter(table=table, user__isnull=False)}
    totals = [0, 0]
    totals[order[ana.pk]], totals[order[ben.pk]] = 20, 90  # okey51: ana's lower total wins
    match.totals, match.finished = totals, timezone.now()
    match.save(update_fields=["totals", "finished"])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    Arena.objects.filter(pk=arena.pk).update(starts=timezone.now() - timedelta(minutes=40))
    service.tick()  # scored while running, past the last pairing: nobody is seated again
    assert ArenaTable.objects.filter(arena=arena).count() == 1
    Arena.objects.filter(pk=arena.pk).update(starts=timezone.now() - timedelta(minutes=50))
    service.tick()  # over, nothing left to score: final ranks
    assert dict(ArenaEntry.objects.values_list("user__username", "rank")) == {"ana": 1, "ben": 2}
    assert Arena.objects.get(pk=arena.pk).finished
    page = client.get(reverse("arena", args=[arena.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="arena-podium"' in page and "Final standings" in page
    assert reverse("replay", args=[table.pk]) in page and reverse("match_record", args=[table.pk]) in page
    profile = client.get(reverse("player_profile", args=["ana"]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "1 arène gagnée" in profile
    assert 'id="arena-badge"' not in client.get(reverse("player_profile", args=["ben"])).content.decode()


@pytest.mark.asyncio
async def test_the_arena_socket_sends_the_standings_and_each_change_once_for_every_page(players):
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.core.cache import cache

    from okeysite.routing import build_application

    application = build_application()
    arena = await database_sync_to_async(running)(seats=2)
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    pages = [WebsocketCommunicator(application, f"/ws/arena/{arena.pk}/", headers=headers) for _ in range(3)]
    for page in pages:
        connected, _ = await page.connect()
        assert connected
        first = await page.receive_json_from(timeout=5)
        assert first["type"] == "standings" and first["standings"] == []
    await database_sync_to_async(cache.clear)()
    await database_sync_to_async(service.join)(players[0], arena.pk)
    await database_sync_to_async(live_announce)(arena.pk)
    for page in pages:
        frame = await page.receive_json_from(timeout=5)
        assert [row["user"] for row in frame["standings"]] == ["ana"]
    for page in pages:
        await page.disconnect()
    missing = WebsocketCommunicator(application, f"/ws/arena/{arena.pk + 99}/",
                                    headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")])
    connected, _code = await missing.connect()
    assert not connected


def live_announce(arena_id):
    from games.arena import live

    live.announce(arena_id)
