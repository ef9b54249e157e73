"""A person's profile: their display name and time zone, and whether pair chat messages email them.

A zone nobody chose yet is the browser's, once the page's script has sent it (`zone_detect`): a choice
made on the account page is never overwritten by it.

A display name is on the game pages of every game its owner plays or hosts, and those bodies are kept in
the page cache per game version: changing the name moves those games' versions, so no page keeps the old
one.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from ..kit import RulesError
from ..models import Game, NotificationPreference, Profile
from ..people import forget_prefs, zone_named
from .events import bump_version


def name_problem(user, display_name: str) -> str | None:
    """Why another player could mistake this name for someone else's, if they could."""
    from django.contrib.auth import get_user_model

    name = display_name.strip()
    if not name:
        return None
    if len(name) > 40:
        return "A display name holds at most 40 characters."
    taken = Profile.objects.filter(display_name__iexact=name).exclude(user=user).exists()
    taken = taken or get_user_model().objects.filter(username__iexact=name).exclude(pk=user.pk).exists()
    return "Another player already goes by that name." if taken else None


def chat_emails_wanted(user) -> bool:
    prefs = NotificationPreference.objects.filter(user=user).first()
    return prefs.chat_message if prefs else NotificationPreference._meta.get_field("chat_message").default


@transaction.atomic
def profile_save(
    *, user, display_name: str | None = None, time_zone: str | None = None, chat_message: bool | None = None
) -> Profile:
    profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
    renamed = False
    if display_name is not None:
        display_name = display_name.strip()
        problem = name_problem(user, display_name)
        if problem:
            raise RulesError(problem, field="display_name")
        renamed = display_name != profile.display_name
        profile.display_name = display_name
    if time_zone is not None:
        if zone_named(time_zone).key != time_zone:
            raise RulesError("Pick a time zone from the list.", field="time_zone")
        profile.time_zone = time_zone
    profile.save()
    if chat_message is not None:
        NotificationPreference.objects.update_or_create(user=user, defaults={"chat_message": chat_message})
    transaction.on_commit(lambda: forget_prefs(user.pk))
    forget_prefs(user.pk)
    if renamed:
        for game in Game.objects.filter(Q(seats__user=user) | Q(hosts=user)).distinct().only("pk"):
            bump_version(game)
    return profile


def zone_detect(*, user, time_zone: str) -> bool:
    """The zone the user's browser reports becomes theirs, if they have none yet; whether it did."""
    if not time_zone or zone_named(time_zone).key != time_zone:
        raise RulesError("That is not a time zone this site knows.", field="time_zone")
    # One UPDATE, so a choice saved meanwhile on the account page (or by another tab) always wins.
    taken = Profile.objects.filter(user=user, time_zone="").update(time_zone=time_zone) > 0
    if taken:
        forget_prefs(user.pk)
    return taken
