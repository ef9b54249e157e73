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
from ..lookalikes import name_problem as lookalike_problem
from ..lookalikes import normalized
from ..models import Game, NotificationPreference, Profile
from ..people import forget_prefs, zone_named
from .events import bump_version


def names_of_others(user) -> list[str]:
    """Every name another person shows under or logs in with: their display names and usernames."""
    from django.contrib.auth import get_user_model

    others = get_user_model().objects.exclude(pk=getattr(user, "pk", None))
    names = list(others.values_list("username", flat=True))
    names += (
        Profile.objects.exclude(user_id=getattr(user, "pk", None))
        .exclude(display_name="")
        .values_list("display_name", flat=True)
    )
    return names


def name_problem(user, display_name: str) -> str | None:
    """Why this display name cannot be taken, if it cannot: too long, hiding characters, or one another player
    could be mistaken for (lookalikes.py)."""
    name = normalized(display_name)
    if not name:
        return None
    if len(name) > 40:
        return "A display name holds at most 40 characters."
    return lookalike_problem(display_name, names_of_others(user))


def chat_emails_wanted(user) -> bool:
    prefs = NotificationPreference.objects.filter(user=user).first() or NotificationPreference(user=user)
    return prefs.wants("chat_message", "email")


@transaction.atomic
def profile_save(
    *, user, display_name: str | None = None, time_zone: str | None = None, chat_message: bool | None = None
) -> Profile:
    profile, _ = Profile.objects.select_for_update().get_or_create(user=user)
    renamed = False
    if display_name is not None:
        # A name kept from before the rules stays as it is while its owner leaves it unchanged.
        if display_name != profile.display_name:
            problem = name_problem(user, display_name)
            if problem:
                raise RulesError(problem, field="display_name")
            display_name = normalized(display_name)
        renamed = display_name != profile.display_name
        profile.display_name = display_name
    if time_zone is not None:
        if zone_named(time_zone).key != time_zone:
            raise RulesError("Pick a time zone from the list.", field="time_zone")
        profile.time_zone = time_zone
    profile.save()
    if chat_message is not None:  # the email column of the pair chats' row (reach/prefs.py has the rest)
        prefs, _ = NotificationPreference.objects.select_for_update().get_or_create(user=user)
        prefs.choose("chat_message", "email", chat_message)
        prefs.save(update_fields=["choices"])
    transaction.on_commit(lambda: forget_prefs(user.pk))
    forget_prefs(user.pk, user)
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
