"""Everything stored about one player, as one JSON-ready dict (their "download my data").

Holds the profile (names, e-mail addresses, settings), ratings and rating changes, every
match they sat at with their seat, the players, the scores and, for each round, the
moves their own seat made, the reviews of their rounds (accuracy, marks), solo records,
the chat lines they wrote, the abuse reports they made and the sanctions on their
account, whom they follow, who follows them and whom they blocked, whether they uploaded
a picture, their challenges and notifications. Other players' hidden tiles are not
theirs to export: a round's deal and positions are left out (the replay page shows them
to anyone once the round is over).
"""
from django.dispatch import Signal
from django.utils import timezone

EXPORT_VERSION = 1

# Sent with `user` while their data is gathered; each receiver returns a dict of sections
# to add (the apps above accounts: challenges and notifications).
exporting = Signal()


def _when(value):
    return value.isoformat() if value else None


def _profile(user):
    from allauth.account.models import EmailAddress

    from accounts.guests import is_guest
    from accounts.pictures import Picture
    from accounts.player_settings import PlayerSettings

    prefs = PlayerSettings.objects.filter(user=user).first()
    return {
        "username": user.get_username(),
        "email": user.email,
        "emails": [{"email": e.email, "verified": e.verified, "primary": e.primary}
                   for e in EmailAddress.objects.filter(user=user).order_by("pk")],
        "first_name": user.first_name, "last_name": user.last_name,
        "date_joined": _when(user.date_joined), "last_login": _when(user.last_login),
        "guest": is_guest(user),
        "picture": Picture.objects.filter(user=user).exists(),
        "settings": None if prefs is None else {
            "display_name": prefs.display_name, "language": prefs.language,
            "public_solo_records": prefs.public_solo_records, "table_defaults": prefs.table_defaults,
            "public_review_marks": prefs.public_review_marks,
        },
    }


def _matches(user):
    from accounts.player_settings import display_name
    from games.models import Move, Round, Seat

    seats = (Seat.objects.filter(user=user).select_related("table", "table__match")
             .order_by("table__created", "table_id"))
    out = []
    for seat in seats:
        table = seat.table
        players = [{"seat": s.index, "player": display_name(s.user) if s.user_id else None,
                    "computer": s.bot_level or None if not s.user_id else None, "left": s.left}
                   for s in Seat.objects.filter(table=table).select_related("user", "user__player_settings")
                   .order_by("index")]
        entry = {
            "table": table.pk, "ruleset": table.ruleset, "mode": table.mode, "options": table.options,
            "status": table.status, "created": _when(table.created), "players_count": table.players,
            "my_seat": seat.index, "players": players, "match": None,
        }
        match = getattr(table, "match", None)
        if match is not None:
            rounds = []
            for rnd in Round.objects.filter(match=match).order_by("index"):
                moves = Move.objects.filter(round=rnd, seat=seat.index).order_by("number")
                rounds.append({
                    "index": rnd.index, "started": _when(rnd.started), "finished": _when(rnd.finished),
                    "scores": rnd.scores, "penalties": rnd.penalties, "totals": rnd.totals,
                    "my_moves": [{"number": m.number, "action": m.action, "result": m.result, "actor": m.actor,
                                  "at": _when(m.created)} for m in moves],
                })
            entry["match"] = {"totals": match.totals, "standings": match.standings, "started": _when(match.started),
                              "finished": _when(match.finished), "rounds": rounds}
        out.append(entry)
    return out


def export_user(user):
    """Everything stored about `user` (a User): a dict of plain JSON values,
    {"format", "exported", "profile", "ratings", "rating_changes", "matches", "round_reviews",
    "solo_records", "chat_lines", "reports_made", "sanctions", "following", "followers",
    "blocked"} and the sections the apps above accounts add through `exporting` (the
    challenges and notifications, `social`), times as ISO 8601 strings."""
    from accounts.moderation import Sanction
    from accounts.relations import Block, Follow
    from games.chat.models import ChatMessage, ChatReport
    from games.models import RoundReview
    from leaderboards.models import Rating, RatingChange, SoloRecord

    data = {
        "format": f"okeysite-player-data-{EXPORT_VERSION}",
        "exported": _when(timezone.now()),
        "profile": _profile(user),
        "ratings": [{"ruleset": r.ruleset, "mu": r.mu, "sigma": r.sigma, "matches": r.matches, "wins": r.wins}
                    for r in Rating.objects.filter(user=user).order_by("ruleset")],
        "rating_changes": [{"table": c.match.table_id, "ruleset": c.ruleset, "place": c.place,
                            "abandoned": c.abandoned, "mu_before": c.mu_before, "sigma_before": c.sigma_before,
                            "mu_after": c.mu_after, "sigma_after": c.sigma_after, "played": _when(c.played)}
                           for c in RatingChange.objects.filter(user=user).select_related("match").order_by("pk")],
        "matches": _matches(user),
        "round_reviews": [{"table": r.round.match.table_id, "round": r.round.number, "seat": r.seat,
                           "ruleset": r.ruleset, "accuracy": r.accuracy, "cost": r.cost, "marks": r.marks,
                           "turns": r.turns, "at": _when(r.created)}
                          for r in RoundReview.objects.filter(user=user).select_related("round__match").order_by("pk")],
        "solo_records": [{"ruleset": r.ruleset, "total": r.total, "rounds": r.rounds, "table": r.match.table_id,
                          "played": _when(r.played)}
                         for r in SoloRecord.objects.filter(user=user).select_related("match").order_by("ruleset")],
        "chat_lines": [{"table": m.table_id, "text": m.text, "at": _when(m.created), "removed": m.removed}
                       for m in ChatMessage.objects.filter(user=user).order_by("created", "pk")],
        "reports_made": [{"table": r.table_id, "reported": r.reported.get_username() if r.reported else None,
                          "reason": r.reason, "lines": r.lines, "at": _when(r.created), "handled": r.handled}
                         for r in ChatReport.objects.filter(reporter=user).select_related("reported").order_by("pk")],
        "sanctions": [{"kind": s.kind, "reason": s.reason, "until": _when(s.until), "at": _when(s.created),
                       "lifted": _when(s.lifted)} for s in Sanction.objects.filter(user=user).order_by("pk")],
        "following": [{"player": f.followed.get_username(), "since": _when(f.created)}
                      for f in Follow.objects.filter(follower=user).select_related("followed").order_by("pk")],
        "followers": [{"player": f.follower.get_username(), "since": _when(f.created)}
                      for f in Follow.objects.filter(followed=user).select_related("follower").order_by("pk")],
        "blocked": [{"player": b.blocked.get_username(), "since": _when(b.created)}
                    for b in Block.objects.filter(blocker=user).select_related("blocked").order_by("pk")],
    }
    for _receiver, section in exporting.send(sender=export_user, user=user):
        data.update(section or {})
    return data
