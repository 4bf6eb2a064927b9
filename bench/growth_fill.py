"""Fill a PostgreSQL database with a site's worth of players and finished matches, fast,
for `bench.data_growth` to measure the pages on.

The shape is a real site's, skewed: a few players sat at tens of thousands of matches,
most at a handful. Every round is a real self-played round of the engine (its deal, every
move with its penalties, its result), so the match, record and replay pages read rounds
that replay; a few dozen such rounds are played once, then copied into every match by
PostgreSQL itself (`INSERT ... SELECT` from template tables), which is what makes tens of
millions of move rows a matter of minutes. The other rows (users, tables, seats, matches,
ratings, rating changes, solo records, chat lines and reports, sanctions) are written with
`COPY`. Ratings follow a random walk, not openskill: the pages only read them, and
`recompute_ratings` rebuilds them from the matches anyway.
"""
from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

SIZES = {
    # players, matches
    "S": (1_000, 5_000),
    "M": (20_000, 100_000),
    "L": (100_000, 200_000),
}
TEMPLATES_PER_RULESET = 8
RULESET_SHARE = (("okey51", 0.5), ("okey17", 0.25), ("rami", 0.25))
SOLO_SHARE = 0.4
OPEN_TABLES = 60  # waiting in the lobby
RUNNING_TABLES = 40  # being played (a match without an end)
SPAN_DAYS = 365  # the matches end over the last year, in id order
PASSWORD = "pbkdf2_sha256$1000000$bench$bench"  # not a usable password: nobody logs in by form
SKEW = 2.0  # a normal player's id is drawn as P * u**SKEW: most play a handful, a few hundreds


@dataclass
class Template:
    """One self-played round, copied into many matches."""

    id: int
    ruleset: str
    initial: dict
    final: dict
    moves: list
    scores: list
    penalties: list
    totals: list
    result: dict | None
    server_seed: str
    commitment: str
    first: int


def heavy_counts(matches):
    """Matches of the few heaviest players: 20,000 for the first (a quarter of the matches
    on a small set), half that for the next, a quarter for the third."""
    top = min(20_000, matches // 4)
    return [top, top // 2, top // 4]


def play_templates(seed):
    """`TEMPLATES_PER_RULESET` self-played rounds of each ruleset (4 seats), as Templates."""
    from games.bots.selfplay import play_round
    from games.engine import fairdeal

    out = []
    for ruleset, _share in RULESET_SHARE:
        for k in range(TEMPLATES_PER_RULESET):
            levels = ["easy", "normal"] * 2 if k % 2 else ["normal"] * 4
            res = play_round(ruleset, f"growth-{seed}-{ruleset}-{k}", levels, first=k % 4, check=False, record=True)
            out.append(Template(len(out) + 1, ruleset, res.initial, res.final, res.moves, list(res.scores),
                                list(res.penalties), list(res.totals), res.final.get("result"),
                                res.server_seed, fairdeal.commitment(res.server_seed), res.first))
    return out


def _ruleset(rng):
    x = rng.random()
    for name, share in RULESET_SHARE:
        if x < share:
            return name
        x -= share
    return RULESET_SHARE[-1][0]


def _standings(ruleset, totals):
    higher = ruleset == "rami"
    return sorted(range(len(totals)), key=lambda s: (-totals[s] if higher else totals[s], s))


def _copy(cur, table, columns, rows):
    quoted = ", ".join(f'"{name}"' for name in columns)
    with cur.copy(f"COPY {table} ({quoted}) FROM STDIN") as cp:
        for row in rows:
            cp.write_row(row)


def _setval(cur, table):
    cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"GREATEST((SELECT COALESCE(MAX(id), 0) FROM {table}), 1))")


def _drop_indexes(cur, table):
    """Drop `table`'s unique and foreign-key constraints and its other indexes (not the
    primary key). Returns the statements that make them again, with the same names."""
    cur.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conrelid = %s::regclass AND contype IN ('u', 'f')", (table,))
    constraints = cur.fetchall()
    cur.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s AND indexname <> %s",
                (table, f"{table}_pkey"))
    names = {name for name, _d in constraints}
    indexes = [(name, definition) for name, definition in cur.fetchall() if name not in names]
    for name, _d in constraints:
        cur.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
    for name, _d in indexes:
        cur.execute(f'DROP INDEX "{name}"')
    return ([definition for _n, definition in indexes]
            + [f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}' for name, definition in constraints])


def _restore_indexes(cur, statements):
    cur.execute("SET maintenance_work_mem = '512MB'")
    for statement in statements:
        cur.execute(statement)


def fill(dsn, size, seed=1, log=print):
    """Fill the migrated, empty database at `dsn` with size `size` ("S", "M" or "L").
    Returns {name: count} of what was written. Prints progress with `log`."""
    import psycopg

    players, n_matches = SIZES[size]
    rng = random.Random(seed)
    started = time.monotonic()

    def step(text):
        log(f"[{time.monotonic() - started:7.1f} s] {text}")

    templates = play_templates(seed)
    by_ruleset = {}
    for t in templates:
        by_ruleset.setdefault(t.ruleset, []).append(t)
    step(f"{len(templates)} template rounds played")
    now = datetime.now(timezone.utc).replace(microsecond=0)
    first_day = now - timedelta(days=SPAN_DAYS)
    heavy = heavy_counts(n_matches)
    counts = {}

    with psycopg.connect(dsn, autocommit=False) as conn, conn.cursor() as cur:
        cur.execute("SET synchronous_commit = off")
        # No foreign-key triggers while filling: the rows are written consistent, and a
        # deferred check per move row cost more than the row itself.
        cur.execute("SET session_replication_role = replica")
        # ---- users: the staff account, the players (a few guests), their settings
        joined = [first_day - timedelta(days=30) + timedelta(seconds=rng.randrange(SPAN_DAYS * 86400))
                  for _ in range(players)]
        user_rows = [(1, PASSWORD, True, "bench_admin", "", "", "admin@example.org", True, True, first_day, now)]
        for i in range(players):
            uid = i + 2
            name = f"heavy{i + 1}" if i < len(heavy) else f"player{uid}"
            user_rows.append((uid, PASSWORD, False, name, "", "", f"{name}@example.org", False, True, joined[i],
                              now - timedelta(hours=rng.randrange(24 * 60))))
        _copy(cur, "auth_user", ["id", "password", "is_superuser", "username", "first_name", "last_name", "email",
                                 "is_staff", "is_active", "date_joined", "last_login"], user_rows)
        guests = [uid for uid in range(2, players + 2) if uid > len(heavy) + 1 and rng.random() < 0.02]
        _copy(cur, "accounts_guest", ["user_id", "created", "last_seen"],
              ((uid, now - timedelta(days=1), now - timedelta(hours=1)) for uid in guests))
        _copy(cur, "accounts_playersettings",
              ["user_id", "display_name", "language", "public_solo_records", "table_defaults", "public_review_marks"],
              ((uid, f"Player {uid}" if rng.random() < 0.3 else "", rng.choice(["", "fr", "tr", "en", "es"]),
                rng.random() < 0.6, "{}", False) for uid in range(2, players + 2) if rng.random() < 0.7 or uid <= 4))
        counts["users"] = len(user_rows)
        step(f"{len(user_rows)} users")

        # ---- matches: tables, seats, matches, the game row, the plan of their rounds
        guests_set = set(guests)
        options = {}
        from games.engine import api
        for name, _share in RULESET_SHARE:
            options[name] = json.dumps(api.normalize_options(name, {}))
        first_normal = len(heavy) + 2
        n_normal = players - len(heavy)

        def normal_player():
            return first_normal + min(n_normal - 1, int(n_normal * rng.random() ** SKEW))

        table_rows, seat_rows, match_rows, game_rows, plan_rows = [], [], [], [], []
        rating_state = {}  # (user, ruleset) -> [mu, sigma, matches, wins, latest match end]
        change_rows, solo_best, chat_rows, report_rows = [], {}, [], []
        seat_id = round_id = 0
        step_seconds = SPAN_DAYS * 86400 / n_matches
        total_tables = n_matches + OPEN_TABLES
        for tid in range(1, total_tables + 1):
            ruleset = _ruleset(rng)
            solo = rng.random() < SOLO_SHARE
            is_open = tid > n_matches
            running = not is_open and tid > n_matches - RUNNING_TABLES
            begin = first_day + timedelta(seconds=(tid - 1) * step_seconds if not is_open else SPAN_DAYS * 86400)
            if is_open:
                solo = False
            humans = []
            for h, count in enumerate(heavy):
                if rng.random() < count / n_matches and len(humans) < (1 if solo else 4):
                    humans.append(h + 2)
            want = 1 if solo else rng.choice([2, 2, 3, 4])
            while len(humans) < want:
                uid = normal_player()
                if uid not in humans:
                    humans.append(uid)
            rng.shuffle(humans)
            if solo:
                humans = humans[:1]
            seats_taken = len(humans) if not is_open else rng.randint(1, 3)
            status = "open" if is_open else ("playing" if running else "finished")
            creator = humans[0]
            table_rows.append((tid, ruleset, options[ruleset], "solo" if solo else "online", status, 4,
                               30, False, "normal", begin, creator, "", "", False, False, False, 0, "{}", None,
                               "[]", 0, "", "", 0))
            for index in range(4 if not is_open else seats_taken):
                seat_id += 1
                user = humans[index] if index < len(humans) else None
                seat_rows.append((seat_id, tid, index, "" if user else "normal", 0, 0, False, user, False, False, 0,
                                  None))
            if is_open:
                continue
            n_rounds = 1 if rng.random() < 0.6 else 2
            chosen = [rng.choice(by_ruleset[ruleset]) for _ in range(n_rounds)]
            totals = [sum(t.totals[s] for t in chosen) for s in range(4)]
            finished = None if running else begin + timedelta(minutes=8 * n_rounds)
            standings = _standings(ruleset, totals)
            match_rows.append((tid, tid, json.dumps(totals), json.dumps(standings) if finished else None, None,
                               begin, finished, finished))
            last_round = None
            for index, t in enumerate(chosen):
                round_id += 1
                last_round = round_id
                r_start = begin + timedelta(minutes=8 * index)
                done = None if running and index == n_rounds - 1 else r_start + timedelta(minutes=8)
                plan_rows.append((round_id, tid, index, t.id, len(humans), r_start, done))
            game_rows.append((tid, tid, last_round, tid, sum(len(t.moves) for t in chosen)))
            if finished is None:
                continue
            if solo:
                user = humans[0]
                key = (user, ruleset)
                best = solo_best.get(key)
                if best is None or (totals[0] > best[1] if ruleset == "rami" else totals[0] < best[1]):
                    solo_best[key] = (tid, totals[0], n_rounds, finished)
            elif len(humans) >= 2 and not any(u in guests_set for u in humans):
                places = {s: standings.index(s) + 1 for s in range(len(humans))}
                for s, user in enumerate(humans):
                    state = rating_state.setdefault((user, ruleset), [25.0, 25.0 / 3, 0, 0, None])
                    mu0, s0 = state[0], state[1]
                    state[0] = mu0 + (2.5 - places[s]) * 0.6 * s0 / 8 + rng.gauss(0, 0.2)
                    state[1] = max(0.8, s0 * 0.97)
                    state[2] += 1
                    state[3] += 1 if places[s] == 1 else 0
                    state[4] = finished if state[4] is None else max(state[4], finished)  # the latest end
                    change_rows.append((tid, user, ruleset, places[s], False, mu0, s0, state[0], state[1], finished))
            if not solo and rng.random() < 0.3:
                for k in range(rng.randint(1, 8)):
                    chat_rows.append((tid, rng.choice(humans), rng.choice(["gg", "hello", "nice okey!", "iyi oyunlar",
                                                                           "bien joué", "one more?", "wp"]),
                                      begin + timedelta(seconds=30 * k), False))
                if rng.random() < 0.02:
                    reported = rng.choice(humans[1:]) if rng.random() < 0.8 else None
                    report_rows.append((tid, humans[0], reported, "rude", "[]", finished, rng.random() < 0.5))

        _copy(cur, "games_table", ["id", "ruleset", "options", "mode", "status", "players", "move_time", "assisted",
                                   "bot_level", "created", "creator_id", "closed_reason", "invite_code", "practice",
                                   "private", "quick", "spectators", "rematch_answers", "rematch_deadline",
                                   "removed", "chain_length", "chain_seed", "chain_tip", "seed_wait"], table_rows)
        step(f"{len(table_rows)} tables")
        _copy(cur, "games_seat", ["id", "table_id", "index", "bot_level", "connections", "consecutive_timeouts",
                                  "autoplay", "user_id", "left", "absent", "away_turns", "client_seed"], seat_rows)
        step(f"{len(seat_rows)} seats")
        _copy(cur, "games_match", ["id", "table_id", "totals", "standings", "rounds_planned", "started", "finished",
                                   "recorded"], match_rows)
        step(f"{len(match_rows)} matches")
        counts.update(tables=len(table_rows), seats=len(seat_rows), matches=len(match_rows))

        # ---- rounds and moves: copied from the templates by the server
        cur.execute("CREATE UNLOGGED TABLE bench_template (id int PRIMARY KEY, ruleset text, initial jsonb, "
                    "final jsonb, scores jsonb, penalties jsonb, totals jsonb, result jsonb, penalty_events jsonb, "
                    "server_seed text, commitment text, first smallint, moves int)")
        cur.execute("CREATE UNLOGGED TABLE bench_template_move (template int, number int, seat smallint, "
                    "action jsonb, result text, version int, events jsonb, draw_no int)")
        cur.execute("CREATE UNLOGGED TABLE bench_round_plan (id bigint, match_id bigint, \"index\" smallint, "
                    "template int, humans smallint, started timestamptz, finished timestamptz)")
        tmpl_rows, tmpl_moves = [], []
        for t in templates:
            events = [e for m in t.moves for e in m["penalties"]]
            tmpl_rows.append((t.id, t.ruleset, json.dumps(t.initial), json.dumps(t.final), json.dumps(t.scores),
                              json.dumps(t.penalties), json.dumps(t.totals), json.dumps(t.result),
                              json.dumps(events), t.server_seed, t.commitment, t.first, len(t.moves)))
            draws = 0
            for number, m in enumerate(t.moves, start=1):
                draws += m["action"].get("type") == "draw"
                tmpl_moves.append((t.id, number, m["seat"], json.dumps(m["action"]), m["result"], number,
                                   json.dumps(m["penalties"]), draws))
        _copy(cur, "bench_template", ["id", "ruleset", "initial", "final", "scores", "penalties", "totals", "result",
                                      "penalty_events", "server_seed", "commitment", "first", "moves"], tmpl_rows)
        _copy(cur, "bench_template_move", ["template", "number", "seat", "action", "result", "version", "events",
                                           "draw_no"], tmpl_moves)
        _copy(cur, "bench_round_plan", ["id", "match_id", "index", "template", "humans", "started", "finished"],
              plan_rows)
        cur.execute("CREATE INDEX ON bench_template_move (template)")
        cur.execute(
            "INSERT INTO games_round (id, match_id, \"index\", server_seed, commitment, first, initial_position, "
            "final_position, scores, penalties, totals, result, penalty_events, started, finished, client_seeds, "
            "algorithm, chain_tip) "
            "SELECT p.id, p.match_id, p.\"index\", t.server_seed, t.commitment, t.first, t.initial, "
            "CASE WHEN p.finished IS NULL THEN NULL ELSE t.final END, "
            "CASE WHEN p.finished IS NULL THEN NULL ELSE t.scores END, "
            "CASE WHEN p.finished IS NULL THEN NULL ELSE t.penalties END, "
            "CASE WHEN p.finished IS NULL THEN NULL ELSE t.totals END, "
            "CASE WHEN p.finished IS NULL THEN NULL ELSE t.result END, "
            "CASE WHEN p.finished IS NULL THEN NULL ELSE t.penalty_events END, "
            "p.started, p.finished, '[\"\", \"\", \"\", \"\"]'::jsonb, 'okeysite-shuffle-1', '' "
            "FROM bench_round_plan p JOIN bench_template t ON t.id = p.template")
        counts["rounds"] = cur.rowcount
        conn.commit()
        step(f"{counts['rounds']} rounds")
        # The move log's indexes and constraints are built once after the load (a sorted
        # build), not row by row: ten times faster on a busy host.
        saved = _drop_indexes(cur, "games_move")
        conn.commit()
        chunk = 20_000
        moves = 0
        for low in range(1, round_id + 1, chunk):
            cur.execute(
                "INSERT INTO games_move (round_id, number, seat, action, result, actor, version, events, draw_no, "
                "created) "
                "SELECT p.id, m.number, m.seat, m.action, m.result, "
                "CASE WHEN m.seat < p.humans THEN 'human' ELSE 'computer' END, m.version, m.events, m.draw_no, "
                "p.started + m.number * interval '4 seconds' "
                "FROM bench_round_plan p JOIN bench_template_move m ON m.template = p.template "
                "WHERE p.id >= %s AND p.id < %s", (low, low + chunk))
            moves += cur.rowcount
            conn.commit()
            step(f"{moves} moves (rounds up to {min(round_id, low + chunk - 1)})")
        counts["moves"] = moves
        _restore_indexes(cur, saved)
        conn.commit()
        step("move indexes and constraints rebuilt")
        _copy(cur, "games_game", ["table_id", "match_id", "round_id", "id", "version", "deadline_kind"],
              (row + ("",) for row in game_rows))

        # ---- ratings, rating changes, solo records
        _copy(cur, "leaderboards_ratingchange", ["match_id", "user_id", "ruleset", "place", "abandoned", "mu_before",
                                                 "sigma_before", "mu_after", "sigma_after", "played"], change_rows)
        _copy(cur, "leaderboards_rating", ["user_id", "ruleset", "mu", "sigma", "matches", "wins", "last_played",
                                           "updated"],
              ((u, r, s[0], s[1], s[2], s[3], s[4], now) for (u, r), s in rating_state.items()))
        _copy(cur, "leaderboards_solorecord", ["user_id", "ruleset", "match_id", "total", "rounds", "played"],
              ((u, r, b[0], b[1], b[2], b[3]) for (u, r), b in solo_best.items()))
        # the player's choice, copied on the record as `leaderboards.solo_visibility` keeps it
        cur.execute("UPDATE leaderboards_solorecord r SET public = true FROM accounts_playersettings s "
                    "WHERE s.user_id = r.user_id AND s.public_solo_records")
        counts.update(rating_changes=len(change_rows), ratings=len(rating_state), solo_records=len(solo_best))
        step(f"{len(change_rows)} rating changes, {len(rating_state)} ratings, {len(solo_best)} solo records")

        # ---- chat, reports, sanctions
        _copy(cur, "games_chatmessage", ["table_id", "user_id", "text", "created", "removed"], chat_rows)
        _copy(cur, "games_chatreport", ["table_id", "reporter_id", "reported_id", "reason", "lines", "created",
                                        "handled"], report_rows)
        sanctions = []
        for uid in range(first_normal, players + 2):
            if rng.random() < 0.01:
                kind = rng.choice(["suspend", "mute", "ban"])
                until = None if kind == "ban" else now + timedelta(days=rng.randint(-30, 30))
                sanctions.append((uid, kind, "bench", until, now - timedelta(days=40), None, 1))
        _copy(cur, "accounts_sanction", ["user_id", "kind", "reason", "until", "created", "lifted", "created_by_id"],
              sanctions)
        counts.update(chat_messages=len(chat_rows), chat_reports=len(report_rows), sanctions=len(sanctions))
        cur.execute("DROP TABLE bench_template, bench_template_move, bench_round_plan")
        for table in ("auth_user", "accounts_guest", "accounts_playersettings", "games_table", "games_seat",
                      "games_match", "games_round", "games_move", "games_game", "leaderboards_ratingchange",
                      "leaderboards_rating", "leaderboards_solorecord", "games_chatmessage", "games_chatreport",
                      "accounts_sanction"):
            _setval(cur, table)
        conn.commit()
        step("chat, reports, sanctions; sequences set")
    # the profile's figures, as the data migration fills them on a site that has matches
    from games.models import Match, Round, Seat
    from leaderboards.models import PlayerSummary
    from leaderboards.summaries import rebuild

    counts.update(summarised_matches=rebuild(Match, Seat, Round, PlayerSummary))
    step(f"player summaries of {counts['summarised_matches']} matches")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    step("vacuum analyze")
    return counts
