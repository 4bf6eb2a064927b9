"""Running arenas on the stored rows: join, withdraw, pause, and the periodic `tick` that
makes the scheduled arenas, scores finished arena matches and pairs the waiting players.

`tick` runs on every deadline sweep (`games.tasks.sweep`, every OKEY_SWEEP_INTERVAL
seconds, from Celery beat or the embedded sweeper). Each arena's work runs under a
PostgreSQL advisory lock of that arena, so two sweeps at once never pair a player twice
(SQLite serialises writes anyway).
"""
import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.arena import live, pairing, scoring
from games.arena.models import Arena, ArenaEntry, ArenaSchedule, ArenaTable
from games.arena.standings import entry_key
from games.engine import api
from games.models import Connection, Seat, Table
from games.play import tables
from leaderboards.models import Rating
from okeysite import db_locks, socket_groups

log = logging.getLogger("games.arena")


MESSAGES = {
    "arena_not_found": _("No such arena."),
    "arena_over": _("This arena is over: it seats no new tables."),
    "arena_busy": _("You are already in another arena. Withdraw from it first."),
}


class ArenaError(Exception):
    """A refused arena request; `code` is a key of `MESSAGES`, `message` its sentence in
    the active language."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code

    @property
    def message(self):
        return str(MESSAGES[self.code])


# ------------------------------------------------------------------ players

def join(user, arena_id, now=None):
    """`user` joins arena `arena_id` (or comes back after withdrawing). A player is in at
    most one arena that is running or about to, at a time. Returns the ArenaEntry.
    Raises ArenaError("arena_not_found" | "arena_over" | "arena_busy")."""
    now = now or timezone.now()
    with transaction.atomic():
        arena = Arena.objects.select_for_update().filter(pk=arena_id).first()
        if arena is None:
            raise ArenaError("arena_not_found")
        if arena.state(now) == "over" or now >= last_pairing(arena):
            raise ArenaError("arena_over")
        others = (ArenaEntry.objects.filter(user=user, withdrawn=False).exclude(arena=arena)
                  .select_related("arena"))
        if any(other.arena.state(now) != "over" for other in others):
            raise ArenaError("arena_busy")
        entry, made = ArenaEntry.objects.get_or_create(arena=arena, user=user, defaults={"reached": now, "seen": now})
        if not made:
            entry.withdrawn = entry.paused = False
            entry.seen = now
            entry.save(update_fields=["withdrawn", "paused", "seen"])
        return entry


def withdraw(user, arena_id):
    """`user` leaves arena `arena_id`: no more pairings (a match in play goes on and
    scores). Their score stays in the standings. Returns True if they were in it."""
    return ArenaEntry.objects.filter(arena_id=arena_id, user=user).update(withdrawn=True) > 0


def pause(user, arena_id, paused=True):
    """`user` pauses (`paused` True) or resumes pairings in arena `arena_id`. Returns True
    if they are in it."""
    return ArenaEntry.objects.filter(arena_id=arena_id, user=user, withdrawn=False).update(
        paused=paused, seen=timezone.now()) > 0


def seen(user, arena_id):
    """The arena page of `user` asked for the standings: they are present."""
    ArenaEntry.objects.filter(arena_id=arena_id, user=user).update(seen=timezone.now())


def current_table(user, arena_id):
    """The id of the arena table `user` plays at now (not left), or None."""
    return (Seat.objects.filter(user=user, left=False, table__arena_link__arena_id=arena_id,
                                table__status__in=[Table.Status.OPEN, Table.Status.PLAYING])
            .values_list("table_id", flat=True).first())


# ------------------------------------------------------------------ the clock

def last_pairing(arena):
    """The last instant `arena` seats a new table (aware datetime): its end minus one
    match's expected length (settings.OKEY_ARENA_MATCH_MINUTES, per ruleset)."""
    expected = settings.OKEY_ARENA_MATCH_MINUTES.get(arena.ruleset, 10)
    return arena.ends - timedelta(minutes=expected)


def next_slot(schedule, now):
    """The next start of `schedule` after `now`: the next multiple of its
    `every_minutes` counted from midnight UTC (aware datetime)."""
    every = max(1, schedule.every_minutes)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    passed = int((now - midnight).total_seconds() // 60)
    return midnight + timedelta(minutes=(passed // every + 1) * every)


def make_scheduled(now=None):
    """Make the next arena of every active schedule that has none to come. Two sweeps at
    once (two beat processes) make it once: the schedule's row is locked while it looks.
    Returns the number made."""
    now = now or timezone.now()
    made = 0
    for schedule_id in ArenaSchedule.objects.filter(active=True).values_list("pk", flat=True):
        with transaction.atomic():
            schedule = ArenaSchedule.objects.select_for_update().filter(pk=schedule_id, active=True).first()
            if schedule is None or Arena.objects.filter(schedule=schedule, starts__gt=now).exists():
                continue
            rules = api.ruleset(schedule.ruleset)
            seats = schedule.seats if schedule.seats in rules.seat_counts else rules.default_seats
            Arena.objects.create(name="", ruleset=schedule.ruleset, starts=next_slot(schedule, now),
                                 minutes=schedule.minutes, move_time=schedule.move_time, seats=min(seats, 4),
                                 rated=schedule.rated, schedule=schedule)
            made += 1
    return made


def tick(now=None):
    """The arenas' periodic work: make the scheduled arenas, then for every arena running
    or with matches still to score, score the finished ones and pair who waits. Returns
    {"made", "scored", "seated"} counts."""
    now = now or timezone.now()
    done = {"made": make_scheduled(now), "scored": 0, "seated": 0}
    for arena in Arena.objects.filter(starts__lte=now, starts__gte=now - timedelta(days=1), finished=False):
        if arena.state(now) == "over" and not arena.tables.filter(scored=False).exists():
            finish(arena)
            continue
        try:
            with transaction.atomic():
                db_locks.hold("arena", arena.pk)
                scored = score_finished(arena, now)
                seated = pair_waiting(arena, now) if now < last_pairing(arena) else 0
                if scored or seated:
                    live.announce(arena.pk)
                else:
                    live.announce_pending(arena.pk)
            done["scored"] += scored
            done["seated"] += seated
        except Exception:  # noqa: BLE001 - one arena's failure must not stop the others
            log.exception("arena %s tick failed", arena.pk)
    return done


# ------------------------------------------------------------------ scoring

def finish(arena):
    """Set the final ranks of an arena that is over with every match scored (players with
    at least one match, by `scoring.standing_key`; the first is the winner, whose profile
    shows the badge) and mark it finished. Returns the number ranked."""
    with transaction.atomic():
        entries = [e for e in ArenaEntry.objects.select_for_update().filter(arena=arena) if e.matches]
        entries.sort(key=entry_key)
        for rank, entry in enumerate(entries, 1):
            entry.rank = rank
            entry.save(update_fields=["rank"])
        Arena.objects.filter(pk=arena.pk).update(finished=True)
        live.announce(arena.pk)
    return len(entries)


def score_finished(arena, now):
    """Score every finished match of `arena` not scored yet (`scoring.score_match`, by
    place among the table's humans). A table closed without a finished match scores
    nothing. Returns the number of tables scored."""
    count = 0
    links = (ArenaTable.objects.filter(arena=arena, scored=False).select_related("table", "table__game__match"))
    for link in links:
        table = link.table
        match = getattr(getattr(table, "game", None), "match", None)
        if table.status == Table.Status.CLOSED and (match is None or match.finished is None):
            link.scored = True
            link.save(update_fields=["scored"])
            count += 1
            continue
        if match is None or match.finished is None:
            continue
        _score_table(arena, table, match, now)
        link.scored = True
        link.save(update_fields=["scored"])
        count += 1
    return count


def _score_table(arena, table, match, now):
    rules = api.ruleset(table.ruleset)
    seats = {s.index: s for s in Seat.objects.filter(table=table, user__isnull=False)}
    order = [i for i in rules.standings(table.options, match.totals) if i in seats]
    stayed = [i for i in order if not seats[i].left]
    humans = {s.user_id for s in seats.values()}
    entries = {e.user_id: e for e in ArenaEntry.objects.select_for_update().filter(arena=arena, user_id__in=humans)}
    for index, seat in seats.items():
        entry = entries.get(seat.user_id)
        if entry is None:
            continue
        place = stayed.index(index) + 1 if index in stayed else len(order)
        points, entry.streak, _doubled = scoring.score_match(place, table.players, entry.streak, left=seat.left)
        entry.score += points
        entry.matches += 1
        if points:
            entry.reached = now
        entry.last_opponents = sorted(humans - {seat.user_id})
        entry.save(update_fields=["score", "matches", "streak", "reached", "last_opponents"])


# ------------------------------------------------------------------ pairing

def _ratings(arena, users):
    rows = Rating.objects.filter(ruleset=arena.ruleset, user_id__in=users).values_list("user_id", "mu", "sigma")
    return {user: mu - 3 * sigma for user, mu, sigma in rows}  # the conservative estimate the ladder ranks by


def waiting(arena, now):
    """The entries of `arena` to pair now: not paused nor withdrawn, present and not
    playing an arena table. Present: their arena page asked within
    settings.OKEY_ARENA_AWAY seconds, or a table page of one of the arena's tables still
    has its socket open (a live `Connection` row: the player stayed on the table page
    after their match ended). Returns a list of (ArenaEntry, seconds waited)."""
    away = now - timedelta(seconds=settings.OKEY_ARENA_AWAY)
    busy = set(Seat.objects.filter(table__arena_link__arena=arena, left=False, user__isnull=False,
                                   table__status__in=[Table.Status.OPEN, Table.Status.PLAYING])
               .values_list("user_id", flat=True))
    at_table = Connection.objects.filter(table__arena_link__arena=arena, expires__gt=now, user__isnull=False)
    entries = (ArenaEntry.objects.filter(arena=arena, paused=False, withdrawn=False)
               .filter(Q(seen__gte=away) | Q(user_id__in=at_table.values("user_id")))
               .select_related("user"))
    # when each player's last arena match finished: one query for the whole pool
    finished = {}
    for user_id, at in (Seat.objects.filter(table__arena_link__arena=arena, user__isnull=False)
                        .values_list("user_id", "table__game__match__finished")):
        if at is not None and (user_id not in finished or at > finished[user_id]):
            finished[user_id] = at
    out = []
    for entry in entries:
        if entry.user_id in busy:
            continue
        since = max(entry.joined, finished.get(entry.user_id, entry.joined), arena.starts)
        out.append((entry, max(0.0, (now - since).total_seconds())))
    return out


def pair_waiting(arena, now):
    """Seat the waiting players of a running `arena` (`pairing.pair`) at new tables that
    start at once, computers in the free seats. Returns the number of players seated."""
    if arena.state(now) != "running":
        return 0
    found = waiting(arena, now)
    if not found:
        return 0
    ratings = _ratings(arena, [e.user_id for e, _w in found])
    pool = [pairing.Waiting(e.user_id, e.score, ratings.get(e.user_id, 0.0), waited, frozenset(e.last_opponents))
            for e, waited in found]
    by_user = {e.user_id: e.user for e, _w in found}
    seated = 0
    for group in pairing.pair(pool, arena.seats, arena.bot_wait):
        _seat(arena, [by_user[u] for u in group])
        seated += len(group)
    return seated


def _seat(arena, users):
    # the players' pages open the table once told: the deal waits for their seeds
    table = tables.seat_together(users, arena.ruleset, move_time=arena.move_time, players=arena.seats,
                                 seed_wait=round(settings.OKEY_ARENA_SEED_WAIT))
    ArenaTable.objects.create(arena=arena, table=table)
    tell_seated(arena.pk, table.pk, [user.pk for user in users])
    return table


def tell_seated(arena_id, table_id, user_ids):
    """After commit, tell the players `user_ids` that arena `arena_id` seated them at table
    `table_id`: their arena pages go there and their table pages (the match they just
    finished) offer the link (`arena.seated` -> the `arena_table` frame, docs/protocol.md).
    Returns None."""
    message = {"type": "arena.seated", "arena": arena_id, "table": table_id, "url": reverse("table", args=[table_id])}
    socket_groups.send_after_commit(
        [(group, message) for user_id in user_ids
         for group in (socket_groups.user_group(user_id), socket_groups.arena_player_group(arena_id, user_id))],
        "arena seating")
