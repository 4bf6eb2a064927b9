"""A finished, reviewed round for the browser test of the review, built in the server's own
database before the server starts (run as `python -m tests.browser.review_fixture`, with the
server's environment): a player's solo okey51 match played out by the computers, its round
reviewed by `games.reviews.store_round_reviews`, and exactly one of the player's discard
turns kept as a puzzle-worthy mistake, chosen where the review's own judge finds a rack
tile that gives points away. Prints JSON {table_id, move, best, wrong, user, password}."""
import json
import os


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "okeysite.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from games import reviews, training
    from games.bots.seen import decode
    from games.models import Round, RoundReview
    from games.review import okey51 as okey
    from games.review.knowledge import sampler
    from tests.games.play.helpers import play_out
    from tests.games.test_records import solo

    password = "tiles-and-racks-42"
    user = get_user_model().objects.create_user("reviewer", "reviewer@example.com", password)
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    table = solo(user)
    play_out(table)
    rnd = Round.objects.get(match__table=table, index=0)
    reviews.store_round_reviews(rnd.pk)
    row = RoundReview.objects.get(round=rnd)
    chosen = None
    for turn in row.turns:
        turn["mark"] = "good" if turn["mark"] else None
        turn["cost"] = 0 if turn["cost"] is not None else None
        view = training.position(row, turn, kind="discard")
        if chosen or view is None:
            continue
        for tile in sorted(set(view["rack"])):
            judged = okey.judge_discard(decode(view), tile, sampler(row.seed, row.seat, turn["number"]))
            if judged["cost"] > 0:
                reasons = judged["reasons"] or [{"code": "weaker_rack", "tile": tile, "points": judged["cost"]}]
                turn.update(mark="mistake", cost=judged["cost"], best={"discard": judged["best"]}, reasons=reasons)
                chosen = {"move": turn["moves"][-1] - 1, "best": judged["best"], "wrong": tile}
                break
    row.save()
    print(json.dumps({"table_id": table.pk, "user": "reviewer", "password": password, **(chosen or {})}))


if __name__ == "__main__":
    main()
