"""Public player profiles and the player's settings page."""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.face_views import PictureForm
from accounts.faces import face_url
from accounts.pictures import Picture
from accounts.player_settings import PlayerSettings, display_name
from accounts.profile_forms import PlayerSettingsForm
from accounts.relations import relation
from games.forms import available_rulesets
from games.models import BOT_LEVEL_CHOICES, RULESET_CHOICES, ArenaEntry
from leaderboards.chart import rating_svg
from leaderboards.models import Rating, SoloRecord
from leaderboards.stats import accuracy_summary, player_stats, rating_series


def player_profile(request, username):
    """`/players/<username>/`: ratings per ruleset, a rating-over-time SVG chart, matches,
    wins, average round total, openings, penalties, recent matches (links to their score
    tables), solo records (when the player made them public, or to the player) and the
    review accuracy over the last 50 rounds beside the computer levels' (to the player, or
    to everyone when they made their review marks public)."""
    user = get_object_or_404(get_user_model(), username=username, is_active=True)
    own = request.user.is_authenticated and request.user.pk == user.pk
    prefs = PlayerSettings.objects.filter(user=user).first()
    names = dict(RULESET_CHOICES)
    ratings = list(Rating.objects.filter(user=user).order_by("ruleset"))
    for rating in ratings:
        rating.ruleset_name = names.get(rating.ruleset, rating.ruleset)
    stats = player_stats(user)
    for ruleset, row in stats["rulesets"].items():
        row["name"] = names.get(ruleset, ruleset)
    records = []
    if own or (prefs and prefs.public_solo_records):
        records = list(SoloRecord.objects.filter(user=user).select_related("match").order_by("ruleset"))
    name = display_name(user)
    chart = rating_svg(rating_series(user), title=_("Rating of %(name)s over time") % {"name": name})
    # the review's accuracy is the player's own unless they made their marks public
    accuracy = accuracy_summary(user) if own or (prefs and prefs.public_review_marks) else None
    accuracy_chart = ""
    if accuracy and accuracy["series"]:
        accuracy_chart = rating_svg(accuracy["series"], title=_("Accuracy of %(name)s over the last 50 rounds") % {
            "name": name})
        for row in accuracy["rulesets"]:
            row["name"] = names.get(row["ruleset"], row["ruleset"])
            labels = dict(BOT_LEVEL_CHOICES)
            for level in row["levels"]:
                level["label"] = labels.get(level["level"], level["level"])
    return render(request, "accounts/profile_public.html", {
        "player": user, "player_name": name, "own": own, "ratings": ratings, "stats": stats,
        "records": records, "chart": chart, "face": face_url(user.pk),
        "accuracy": accuracy, "accuracy_chart": accuracy_chart,
        "arena_wins": ArenaEntry.objects.filter(user=user, rank=1).count(),
        "relation": relation(request.user, user) if request.user.is_authenticated and not own else None,
        "rulesets": available_rulesets(),
    })


@login_required
def my_profile(request):
    """`/players/me/`: the viewer's own public profile."""
    return redirect("player_profile", username=request.user.get_username())


@login_required
def player_settings(request):
    """`/settings/`: edit display name, language, public solo records, table defaults.
    Saving a language also switches the site to it (language cookie)."""
    prefs = PlayerSettings.for_user(request.user)
    form = PlayerSettingsForm(request.POST or None, instance=prefs)
    if request.method == "POST" and form.is_valid():
        prefs = form.save()
        response = redirect("player_settings")
        if prefs.language:
            translation.activate(prefs.language)
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, prefs.language,
                                max_age=settings.LANGUAGE_COOKIE_AGE, samesite="Lax")
        messages.success(request, _("Your settings are saved."))
        return response
    return render(request, "accounts/profile_settings.html", {
        "form": form, "picture_form": PictureForm(), "face": face_url(request.user.pk),
        "has_picture": Picture.objects.filter(user=request.user).exists()})
