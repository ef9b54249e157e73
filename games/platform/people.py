"""How a person shows: the display name in place of the username, and the time zone they read times in.

Both live in `Profile`. A zone nobody chose is "" (read as UTC): the page's script of a logged-in user
who has none sends their browser's zone once (`services.profiles.zone_detect`), which becomes their zone
until they pick another on the account page, so their emails are in it too. The viewer's own (the page
header, the zone of every time on the page) are read through the cache, so a page served from the page
cache still costs no query for them; a profile's save drops the cached copy. Other people's names come
with the rows that name them (`select_related("user__profile")`), never one query per name.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist

from .models import Profile, person_label

PREFS_SECONDS = 600
_OWN = "_genius_own_prefs"  # where a request's user keeps its own prefs once read
UTC = ZoneInfo("UTC")


def shown_name(user) -> str:
    """The name a page shows for `user`: their display name, or their username until they pick one."""
    if user is None:
        return ""
    try:
        profile = user.profile
    except ObjectDoesNotExist:
        return user.username
    return profile.display_name or user.username


label = person_label  # "Ali the Bold (alice)": people as hosts read them in the admin


def _prefs_key(user_id: int) -> str:
    return f"prefs:{user_id}"


def own_prefs(user) -> tuple[str, str]:
    """(display name or "", zone name) of the logged-in `user`, from the cache when it holds them.

    Read once per request: the page's header, its zone and every time on it ask, and the user object is
    the request's own (loaded afresh by each), so the copy kept on it lives no longer than the request.
    """
    kept = getattr(user, _OWN, None)
    if kept is not None:
        return kept
    key = _prefs_key(user.pk)
    kept = cache.get(key)
    if kept is None:
        row = Profile.objects.filter(user_id=user.pk).values_list("display_name", "time_zone").first()
        kept = tuple(row) if row else ("", "")
        cache.set(key, kept, timeout=PREFS_SECONDS)
    setattr(user, _OWN, kept)  # through a request's lazy user too, onto the user it wraps
    return kept


def forget_prefs(user_id: int, user=None) -> None:
    """A profile's save: the cached copy goes, and `user`'s own (the saving request's) with it."""
    cache.delete(_prefs_key(user_id))
    if user is not None and hasattr(user, _OWN):
        delattr(user, _OWN)


def own_name(user) -> str:
    """The logged-in viewer's own name, for the header of every page."""
    return own_prefs(user)[0] or user.username


def zone_named(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name) if name else UTC
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def zone_chosen(user) -> str:
    """The zone `user` reads times in, "" until they have one (a visitor, or a browser not seen yet)."""
    if user is None or not user.is_authenticated:
        return ""
    name = own_prefs(user)[1]
    return name if name and zone_named(name).key == name else ""


def zone_of(user) -> ZoneInfo:
    """The zone `user` reads times in (UTC for visitors and for those without one yet)."""
    if user is None or not user.is_authenticated:
        return UTC
    return zone_named(own_prefs(user)[1])


def ensure_profile(user) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


def _profile_saved(sender, instance, **kwargs) -> None:
    forget_prefs(instance.user_id)


def _user_created(sender, instance, created, **kwargs) -> None:
    if created:
        Profile.objects.get_or_create(user=instance)


def connect() -> None:
    from django.contrib.auth import get_user_model
    from django.db.models.signals import post_delete, post_save

    post_save.connect(_profile_saved, sender=Profile, dispatch_uid="genius-profile-saved")
    post_delete.connect(_profile_saved, sender=Profile, dispatch_uid="genius-profile-deleted")
    post_save.connect(_user_created, sender=get_user_model(), dispatch_uid="genius-profile-for-new-user")
