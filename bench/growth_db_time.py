"""The database's own time for the pages the growth measure found slow: every SELECT a
page runs, replayed with `EXPLAIN (ANALYZE, TIMING OFF)` and its execution times summed.
On a shared host the wall time of a page moves with the other jobs; the planner's
execution time of its queries moves much less, and it is what an index or a rewritten
query changes.

    .venv/bin/python -m bench.growth_db_time --db okeysite_growth_l
    .venv/bin/python -m bench.growth_db_time --db okeysite_growth_l --without-search-indexes

`--without-search-indexes` drops the trigram and inactive-user indexes inside a
transaction that is rolled back (the database as the code before them had it; run that
from a checkout of that code). Each page is replayed 3 times: median and minimum, ms.
"""
import argparse
import os
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NEW_INDEXES = ("auth_user_username_trgm", "auth_user_first_name_trgm", "auth_user_last_name_trgm",
               "auth_user_email_trgm", "accounts_playersettings_display_name_trgm", "games_chatmessage_text_trgm",
               "auth_user_inactive")
SEARCHES = [("auth.user", "player12"), ("accounts.playersettings", "player12"), ("games.chatmessage", "gg"),
            ("games.chatmessage", "good"), ("leaderboards.rating", "player12"),
            ("leaderboards.ratingchange", "player12"), ("leaderboards.solorecord", "player12")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--without-search-indexes", action="store_true")
    args = parser.parse_args()
    from bench.data_growth import _setup_django

    _setup_django(f"{args.server}/{args.db}")
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    User = get_user_model()
    anonymous, staff, player = Client(), Client(), Client()
    staff.force_login(User.objects.get(username="bench_admin"))
    player.force_login(User.objects.get(username="heavy1"))
    keyset = (ROOT / "leaderboards" / "pages.py").exists()  # this checkout pages by keyset
    if keyset:
        last_rankings = last_solo = "?last=1"
    else:
        from leaderboards.models import Rating, SoloRecord
        ranked = Rating.objects.filter(ruleset="okey51", matches__gte=5, user__guest__isnull=True).count()
        solo = SoloRecord.objects.filter(ruleset="okey51", user__player_settings__public_solo_records=True).count()
        last_rankings, last_solo = f"?page={-(-ranked // 25)}", f"?page={-(-solo // 25)}"
    pages = [("rankings okey51, last page", anonymous, "/rankings/okey51/" + last_rankings),
             ("rankings okey51 this month, as the player", player, "/rankings/okey51/?period=month"),
             ("solo records okey51, first page", anonymous, "/rankings/okey51/solo/"),
             ("solo records okey51, last page", anonymous, "/rankings/okey51/solo/" + last_solo),
             ("lobby, most active player", player, "/"),
             ("profile, most active player", anonymous, "/players/heavy1/")]
    pages += [(f"admin {label} ?q={term}", staff, f"/admin/{label.replace('.', '/')}/?q={term}")
              for label, term in SEARCHES]
    print(f"{args.db}: load average {os.getloadavg()[0]:.1f}; "
          f"{'without' if args.without_search_indexes else 'with'} the search indexes")
    for label, client, url in pages:
        with CaptureQueriesContext(connection) as ctx:
            status = client.get(url).status_code
        selects = [q["sql"] for q in ctx.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")]
        runs = []
        for _ in range(3):
            total = 0.0
            with transaction.atomic(), connection.cursor() as cursor:
                if args.without_search_indexes:
                    for name in NEW_INDEXES:
                        cursor.execute(f'DROP INDEX IF EXISTS "{name}"')
                for sql in selects:
                    cursor.execute("EXPLAIN (ANALYZE, TIMING OFF) " + sql)
                    plan = "\n".join(row[0] for row in cursor.fetchall())
                    total += float(re.search(r"Execution Time: ([\d.]+)", plan).group(1))
                transaction.set_rollback(True)
            runs.append(total)
        print(f"{label:<48} HTTP {status} {len(selects):3d} q  db {statistics.median(runs):7.1f} ms "
              f"(min {min(runs):.1f})", flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
