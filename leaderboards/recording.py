"""Writing ratings and solo records from finished matches (RULES.md §6 "Records").

- `record_result(match)`: the durable, idempotent recording step of one finished match.
  Online matches with at least two humans are rated; solo matches may set a solo record.
  The write and the match's `recorded` mark are one transaction, and a second call
  changes nothing. The commit path calls it after a match's commit (`games.play.commit`);
- `record_pending()`: the sweeper's backstop, recording finished matches still without
  the mark (a crash between the match's commit and that call loses nothing).
- `recompute(ruleset)`: rebuild every rating of a ruleset from the stored matches.
- `void_match(match, reason, by)`: an admin voids a match; its rating changes are reverted
  by recomputing the ruleset, its solo record (if any) is recomputed, and it leaves its
  players' summaries (`leaderboards.summaries`), which `record_result` adds it to.

Rating writes of one ruleset are serialised with a PostgreSQL transaction-level advisory
lock (SQLite serialises every write transaction anyway), so two matches finishing at once
cannot both read the same rating and lose one update.
"""

from collections import Counter

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from accounts.guests import Guest
from games import results
from games.arena.models import ArenaTable
from games.engine import api
from games.models import Match, Move, Seat, Table
from leaderboards import ratings, solo_visibility, summaries
from leaderboards.models import Rating, RatingChange, SoloRecord, VoidedMatch
from okeysite import db_locks

PENDING_BATCH = 100  # finished matches one sweep records at most


def _human_seats(seats, guests=None):
    """[(seat index, user id, abandoned)] of the match's human seats. Abandoned: the player
    left the match (`games.results.has_left`: they chose to, or had no socket at the table
    for its last OKEY_LEFT_AFTER_TURNS turns). A seat on autoplay after timeouts whose
    player kept a socket open is rated by its place like any other. `guests`: the guest
    user ids among them when the caller read them already (a batch), else None."""
    if guests is None:
        guests = set(Guest.objects.filter(user_id__in=[s.user_id for s in seats if s.user_id])
                     .values_list("user_id", flat=True))
    return [(s.index, s.user_id, results.has_left(s)) for s in seats if s.user_id and s.user_id not in guests]


def rated_teams(match):
    """How `match` is rated, or None when it is unrated.

    Returns (teams, places, winners): `teams` — list of lists of (seat, user id, abandoned),
    one list per rated side (a player, or an okey51 team with at least one human);
    `places` — one int per side, 1 = best (`ratings.places`; a side with a player who left
    is last); `winners` — set of seats that won (`games.results.match_result`: the best
    seat or team overall, never one that left; the "Wins" of the ratings).
    Unrated: not an online table, not finished, voided, a casual arena's, or fewer than two
    humans / sides.
    """
    table = match.table
    if table.mode != Table.Mode.ONLINE or match.finished is None or not match.totals:
        return None
    if VoidedMatch.objects.filter(match=match).exists():
        return None
    if ArenaTable.objects.filter(table_id=match.table_id, arena__rated=False).exists():
        return None  # a casual arena's match
    seats = list(Seat.objects.filter(table_id=match.table_id).order_by("index"))
    return _teams_of(match, seats, _human_seats(seats))


def _teams_of(match, seats, humans):
    """`rated_teams` of an online, finished, not voided, rated `match` from its `seats`
    (seat order) and `humans` (`_human_seats`); reads nothing."""
    table = match.table
    if len({user for _seat, user, _ab in humans}) < 2:
        return None
    rules = api.ruleset(table.ruleset)
    team_totals = rules.team_totals(table.options, match.totals)
    winners = set(results.match_result(table, match.totals, seats).winners)
    if team_totals is not None:
        sides = [[h for h in humans if h[0] % 2 == team] for team in (0, 1)]
        side_totals = list(team_totals)
    else:
        sides = [[h] for h in humans]
        side_totals = [match.totals[h[0]] for h in humans]
    keep = [i for i, side in enumerate(sides) if side]
    if len(keep) < 2:
        return None
    sides = [sides[i] for i in keep]
    side_totals = [side_totals[i] for i in keep]
    abandoned = {i for i, side in enumerate(sides) if any(ab for _s, _u, ab in side)}
    return sides, ratings.places(table.ruleset, side_totals, abandoned), winners


def _apply(match, plan, current):
    """Apply the rated `plan` (`rated_teams`) of `match` to the ratings in `current`
    ({user id: Rating}, every rated player's, changed in place: mu, sigma, matches, wins
    and `last_played`). Returns the list of unsaved RatingChange rows."""
    sides, places, winners = plan
    before = [[(current[u].mu, current[u].sigma) for _s, u, _ab in side] for side in sides]
    after = ratings.rate(before, places)
    changes = []
    for side, place, side_before, side_after in zip(sides, places, before, after):
        for (seat, user, abandoned), (mu0, s0), (mu1, s1) in zip(side, side_before, side_after):
            rating = current[user]
            rating.mu, rating.sigma = mu1, s1
            # the latest end, not this one: the sweeper may record an older match late
            if rating.last_played is None or match.finished > rating.last_played:
                rating.last_played = match.finished
            rating.matches += 1
            rating.wins += 1 if seat in winners else 0
            changes.append(RatingChange(
                match=match, user_id=user, ruleset=match.table.ruleset, place=place, abandoned=abandoned,
                mu_before=mu0, sigma_before=s0, mu_after=mu1, sigma_after=s1, played=match.finished,
            ))
    return changes


def _rate(match):
    """Apply one rated match to the stored ratings (the caller holds the ruleset lock and
    has checked no RatingChange exists for it). Returns the number of RatingChange rows."""
    plan = rated_teams(match)
    if plan is None:
        return 0
    ruleset = match.table.ruleset
    users = [user for side in plan[0] for _seat, user, _ab in side]
    Rating.objects.bulk_create([Rating(user_id=u, ruleset=ruleset) for u in users], ignore_conflicts=True)
    current = {r.user_id: r for r in Rating.objects.filter(ruleset=ruleset, user_id__in=users)}
    changes = _apply(match, plan, current)
    for user in users:
        current[user].save(update_fields=["mu", "sigma", "matches", "wins", "last_played", "updated"])
    RatingChange.objects.bulk_create(changes)
    return len(changes)


def solo_total(match):
    """The player's total of a solo match that may count as a record, or None.

    Counts only a finished, not voided solo match in which the player (seat 0) was not on
    autoplay at the end and made more than half of the seat's moves themselves.
    Returns (user id, total points) or None.
    """
    table = match.table
    if table.mode != Table.Mode.SOLO or match.finished is None or not match.totals:
        return None
    if VoidedMatch.objects.filter(match=match).exists():
        return None
    seat = Seat.objects.filter(table=table, index=0, user__isnull=False).first()
    if seat is None or seat.autoplay:
        return None
    counts = Counter(dict(Move.objects.filter(round__match=match, seat=0).values_list("actor")
                          .annotate(n=Count("id"))))
    # an old match's moves are its rounds' archived entries (games.compaction)
    for moves in match.rounds.filter(archived_moves__isnull=False).values_list("archived_moves", flat=True):
        counts.update(m["actor"] for m in moves if m["seat"] == 0)
    own = counts.get(Move.Actor.HUMAN, 0)
    if own * 2 <= sum(counts.values()):
        return None
    return seat.user_id, match.totals[0]


def _record_solo(match):
    """Keep `match` as the player's solo record when it beats theirs (the caller holds the
    ruleset's solo lock). Returns the SoloRecord or None."""
    found = solo_total(match)
    if found is None:
        return None
    user_id, total = found
    ruleset = match.table.ruleset
    record = SoloRecord.objects.filter(user_id=user_id, ruleset=ruleset).first()
    if record is None:
        record = SoloRecord(user_id=user_id, ruleset=ruleset)
    elif record.match_id == match.pk or not api.ruleset(ruleset).better(total, record.total):
        return record
    record.match, record.total, record.played = match, total, match.finished
    record.rounds = match.rounds.filter(finished__isnull=False).count()
    record.public = solo_visibility.chosen(user_id)
    record.save()
    return record


def record_result(match):
    """Record a finished `games.models.Match` in the ratings or the solo records, and mark
    it `recorded` in the same transaction.

    Online: rates the match once (unrated when fewer than two humans, unfinished or voided).
    Solo: keeps the player's best total per ruleset (`Ruleset.better`). Either way, the
    call that marks it recorded adds a not voided match to its players' summaries
    (`leaderboards.summaries`). Calling it again
    for the same match changes nothing. Returns the number of RatingChange rows written
    (online), the SoloRecord (solo) or None (not finished, or no record).
    """
    match = Match.objects.select_related("table").get(pk=match.pk)
    if match.finished is None:
        return None
    solo = match.table.mode == Table.Mode.SOLO
    with transaction.atomic():
        db_locks.hold("solo" if solo else "rating", match.table.ruleset)
        if solo:
            result = _record_solo(match)
        elif RatingChange.objects.filter(match=match).exists():
            result = 0
        else:
            result = _rate(match)
        # The mark is the summary's guard too: only the call that sets it adds the match,
        # so the commit path and the sweeper recording the same match count it once. The
        # update holds the match's row until the commit, and a void waits for it
        # (`void_match`), so a match voided meanwhile is seen here or removed there.
        first = Match.objects.filter(pk=match.pk, recorded__isnull=True).update(recorded=timezone.now())
        if first and not VoidedMatch.objects.filter(match=match).exists():
            summaries.add_match(match)
    return result


def record_pending(limit=PENDING_BATCH):
    """Record up to `limit` finished matches not yet marked `recorded`, oldest end first
    (`record_result`). The sweeper calls it at start-up and periodically.
    Returns the number of matches recorded."""
    pending = list(Match.objects.filter(finished__isnull=False, recorded__isnull=True)
                   .order_by("finished", "pk").values_list("pk", flat=True)[:limit])
    for match_id in pending:
        record_result(Match(pk=match_id))
    return len(pending)


RECOMPUTE_BATCH = 500  # matches read and written together by `recompute`


def recompute(ruleset, batch=None):
    """Rebuild every rating of `ruleset` from the stored, finished, not voided online
    matches in the order they ended. Returns the number of rated matches.

    The matches are read `batch` at a time by keyset on (finished, pk), each batch with
    its seats, guests and casual arena tables in one query each, and its rating changes
    written in one; the ratings are kept in memory and written at the end. So the queries
    grow with the batches, never with the matches, and the result is the same as rating
    the matches one by one (`record_result`). `batch` defaults to `RECOMPUTE_BATCH`."""
    batch = batch or RECOMPUTE_BATCH
    with transaction.atomic():
        db_locks.hold("rating", ruleset)
        RatingChange.objects.filter(ruleset=ruleset).delete()
        Rating.objects.filter(ruleset=ruleset).delete()
        rated = 0
        current = {}
        matches = (Match.objects.select_related("table")
                   .filter(table__ruleset=ruleset, table__mode=Table.Mode.ONLINE, finished__isnull=False,
                           void__isnull=True)
                   .order_by("finished", "pk"))
        last = None
        while True:
            page = matches
            if last is not None:
                page = page.filter(Q(finished__gt=last.finished) | Q(finished=last.finished, pk__gt=last.pk))
            page = list(page[:batch])
            if not page:
                break
            last = page[-1]
            changes = []
            for match, plan in _plans(page):
                for _side in plan[0]:
                    for _seat, user, _ab in _side:
                        if user not in current:
                            current[user] = Rating(user_id=user, ruleset=ruleset)
                changes.extend(_apply(match, plan, current))
                rated += 1
            RatingChange.objects.bulk_create(changes)
        Rating.objects.bulk_create(current.values(), batch_size=1000)
        return rated


def _plans(matches):
    """(match, `rated_teams` plan) of each rated one of `matches` (online, finished, not
    voided, with their tables), in their order, reading seats, guests and casual arena
    tables in one query each."""
    table_ids = [m.table_id for m in matches]
    casual = set(ArenaTable.objects.filter(table_id__in=table_ids, arena__rated=False)
                 .values_list("table_id", flat=True))
    seats = {}
    for seat in Seat.objects.filter(table_id__in=table_ids).order_by("table_id", "index"):
        seats.setdefault(seat.table_id, []).append(seat)
    users = {s.user_id for found in seats.values() for s in found if s.user_id}
    guests = set(Guest.objects.filter(user_id__in=users).values_list("user_id", flat=True))
    for match in matches:
        if match.table_id in casual or not match.totals:
            continue
        table_seats = seats.get(match.table_id, [])
        plan = _teams_of(match, table_seats, _human_seats(table_seats, guests))
        if plan is not None:
            yield match, plan


def recompute_solo(user_id, ruleset):
    """Rebuild one player's solo record of `ruleset` from their stored solo matches.
    Returns the SoloRecord or None."""
    with transaction.atomic():
        db_locks.hold("solo", ruleset)
        SoloRecord.objects.filter(user_id=user_id, ruleset=ruleset).delete()
        best = None
        matches = (Match.objects.select_related("table")
                   .filter(table__ruleset=ruleset, table__mode=Table.Mode.SOLO, table__seats__index=0,
                           table__seats__user_id=user_id, finished__isnull=False, void__isnull=True)
                   .order_by("finished", "pk"))
        for match in matches:
            found = solo_total(match)
            if found is not None and (best is None or api.ruleset(ruleset).better(found[1], best[1])):
                best = (match, found[1])
        if best is None:
            return None
        match, total = best
        return SoloRecord.objects.create(
            user_id=user_id, ruleset=ruleset, match=match, total=total, played=match.finished,
            rounds=match.rounds.filter(finished__isnull=False).count(), public=solo_visibility.chosen(user_id),
        )


def void_match(match, reason, by=None):
    """Void `match` (admin): it stops counting. Online: its rating changes are reverted by
    recomputing the ruleset. Solo: the player's solo record is recomputed.

    Args: `reason` (str, required), `by` (staff user or None). Returns the VoidedMatch
    (the existing one when already voided). Raises ValueError on an empty reason.
    """
    if not (reason or "").strip():
        raise ValueError("voiding a match needs a reason")
    match = Match.objects.select_related("table").get(pk=match.pk)
    with transaction.atomic():
        void, created = VoidedMatch.objects.get_or_create(match=match, defaults={"reason": reason.strip(),
                                                                               "voided_by": by})
        if not created:
            return void
        ruleset = match.table.ruleset
        if match.table.mode == Table.Mode.SOLO:
            seat = Seat.objects.filter(table=match.table, index=0).first()
            if seat and seat.user_id:
                recompute_solo(seat.user_id, ruleset)
        elif RatingChange.objects.filter(match=match).exists():
            recompute(ruleset)
        # Locked after the ratings (the order `record_result` takes them in), then read
        # again: a match recorded before this void is in its players' summaries and leaves
        # them; one not yet recorded is skipped by `record_result`, which sees the void.
        recorded = Match.objects.select_for_update().filter(pk=match.pk).values_list("recorded", flat=True).first()
        if recorded is not None:
            summaries.remove_match(match)
    return void
