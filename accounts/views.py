"""The player's own page: account links and finished matches."""
from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from games.models import Table


@login_required
def profile(request):
    """Profile: e-mail/password links (allauth) and the player's recent tables."""
    tables = Table.objects.filter(seats__user=request.user).distinct().order_by("-created")[:30]
    return render(request, "accounts/profile.html", {"tables": tables})
