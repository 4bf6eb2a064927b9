"""The friends list as the pages show it: the players one follows with their presence,
the requests of those who follow one without being followed back, and the blocked."""
from accounts.faces import face_url
from accounts.player_settings import display_name
from accounts.relations import Block, Follow
from games.forms import available_rulesets
from social.presence import presence_of


def _person(user, presence=None, friend=False):
    return {"id": user.pk, "username": user.get_username(), "name": display_name(user), "face": face_url(user.pk),
            "state": (presence or {}).get("state", "offline"), "table": (presence or {}).get("table"),
            "friend": friend}


def friends_context(user):
    """What the friends list needs for `user` (a User): {"following": [person], "requests":
    [person], "blocked": [person], "rulesets": [(id, name)]}; a person is {"id",
    "username", "name", "face" (address), "state" (`social.presence`), "table" (a public
    table's id or None), "friend" (they follow back)}. Following: online first, then by
    name."""
    followed = [f.followed for f in Follow.objects.filter(follower=user, followed__is_active=True)
                .select_related("followed", "followed__player_settings")]
    followers = set(Follow.objects.filter(followed=user).values_list("follower_id", flat=True))
    present = presence_of([u.pk for u in followed])
    following = [_person(u, present[u.pk], u.pk in followers) for u in followed]
    rank = {"playing": 0, "watching": 1, "online": 2, "offline": 3}
    following.sort(key=lambda p: (rank[p["state"]], p["name"].casefold()))
    mine = {u.pk for u in followed}
    requests = [_person(f.follower) for f in Follow.objects.filter(followed=user, follower__is_active=True)
                .exclude(follower_id__in=mine).select_related("follower", "follower__player_settings")
                .order_by("-created")]
    blocked = [_person(b.blocked) for b in Block.objects.filter(blocker=user).select_related(
        "blocked", "blocked__player_settings").order_by("-created")]
    return {"following": following, "requests": requests, "blocked": blocked, "rulesets": available_rulesets()}
