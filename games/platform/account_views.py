"""A person's own pages: the profile (name, zone, password, email, Discord), an invitation's link, and the
page an email's confirmation link opens."""

from __future__ import annotations

from allauth.account.views import ConfirmEmailView
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from .errors import StateChanged
from .kit import RulesError
from .models import SeasonPlayer, zone_choices
from .people import ensure_profile
from .reach import discord as reach_discord
from .reach import dispatch
from .services.invitations import invitation_accept, invitation_find, invitation_standing
from .services.profiles import chat_emails_wanted, profile_save, zone_detect
from .signup import PENDING, discord_configured
from .wording import Told


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        max_length=40, required=False, help_text="Shown on every page in place of your username."
    )
    time_zone = forms.ChoiceField(
        choices=zone_choices,
        help_text="Every time on the site and in its emails is shown in it. At first it is your browser's.",
    )
    chat_message = forms.BooleanField(
        required=False,
        label="Email me when a player writes to me in a pair chat",
        help_text="One email with a link to the chat, then none about that chat until you have read it.",
    )


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    current = ensure_profile(request.user)
    form = ProfileForm(
        request.POST or None,
        initial={
            "display_name": current.display_name,
            "time_zone": current.time_zone or "UTC",
            "chat_message": chat_emails_wanted(request.user),
        },
    )
    if not current.time_zone and not form.is_bound:
        # Not chosen yet: the page's script selects the browser's zone, as it sends it (site.js); a form
        # sent back with an error keeps what the person picked.
        form.fields["time_zone"].widget.attrs["data-browser-zone"] = "1"
    if request.method == "POST" and form.is_valid():
        try:
            profile_save(user=request.user, **form.cleaned_data)
        except RulesError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, "Saved.")
            return redirect("profile")
    discord = None
    if discord_configured():
        discord = request.user.socialaccount_set.filter(provider="discord").first()
    return render(
        request,
        "platform/profile.html",
        {
            "form": form,
            "discord": discord,
            "discord_login": discord_configured(),
            # Why the last Discord DM did not reach them (DMs closed, not in the server), while it stands.
            "discord_problem": discord and reach_discord.last_problem(request.user),
        },
        status=400 if form.errors else 200,
    )


@require_POST
def zone_detected(request):
    """The browser's zone, sent by the page's script of a logged-in user who has none (static/js/site.js):
    204 whether it was taken or a zone was already there; 400 with the field's error for a name no zone has.
    Not `login_required`: a script's request is answered, not sent to the login page."""
    if not request.user.is_authenticated:
        return JsonResponse({"detail": "Log in first."}, status=403)
    try:
        zone_detect(user=request.user, time_zone=request.POST.get("time_zone", ""))
    except RulesError as exc:
        return JsonResponse({exc.field: [exc.message]}, status=400)
    return HttpResponse(status=204)


@require_http_methods(["GET", "POST"])
def join(request, token: str):
    """An invitation's link: a member goes to the season; a logged-in user joins with one button; a
    newcomer signs up or logs in, and joins as they do (the invitation waits in their session)."""
    invitation = invitation_find(token)
    user = request.user
    if invitation is not None and user.is_authenticated:
        if SeasonPlayer.objects.filter(season=invitation.season, user=user).exists():
            return redirect("season", season_id=invitation.season_id)
    standing = invitation_standing(invitation)
    if not standing.usable:
        status = 404 if invitation is None else 410
        problem = Told(standing.problem, {})  # its time in the reader's zone (a visitor's: the page script)
        return render(request, "platform/join.html", {"problem": problem}, status=status)
    if request.method == "POST" and user.is_authenticated:
        try:
            member = invitation_accept(token=token, user=user)
        except StateChanged as exc:
            return render(request, "platform/join.html", {"problem": exc.message}, status=410)
        messages.success(request, f"You are a player of {member.season.name}.")
        return redirect("season", season_id=member.season_id)
    if not user.is_authenticated:
        request.session[PENDING] = token
    unreachable = user.is_authenticated and dispatch.unreachable(user)
    context = {"invitation": invitation, "next": request.path, "unreachable": unreachable}
    return render(request, "platform/join.html", context)


class ConfirmEmail(ConfirmEmailView):
    """allauth's confirmation page, which logs nobody out: allauth's own logs out whoever opens the link while
    logged in as someone else, even on a plain GET, so a link posted in a chat logged out every player and
    host who clicked it. Here the GET shows the address and a button; pressing it confirms the address, and
    whoever is logged in stays so."""

    def logout_other_user(self, confirmation) -> None:
        return None
