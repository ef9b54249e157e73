"""Wrong passwords delay the next try from the same address; nothing is ever counted per username alone.

Usernames are public (the standings show them), so a count per username would let a rival keep a player out
before a deadline with wrong passwords from many addresses. django-axes records every failed login (the
login form, `POST /api/token/`, allauth's password check before a sensitive change) per username, address
and browser (`AccessAttempt`, the address as genius/proxy.py reads it). This handler replaces axes' rule, a
hard lock of fixed length, by a delay that grows:

- AXES_FAILURE_LIMIT (5) wrong passwords for one username from one address, or
  GENIUS_LOGIN_ADDRESS_FREE_TRIES (20) from one address whatever the usernames, cost nothing; from then on
  the next try from that address (for that username) waits GENIUS_LOGIN_DELAY_SECONDS (60 s) after the last
  failure, and every further failure doubles the wait, up to GENIUS_LOGIN_DELAY_MAX_SECONDS (an hour);
- a try made while waiting is refused before the password is looked at, and counts as nothing;
- the right password ends its (username, address) count, never the address's (a guesser with an account of
  their own would clear it between guesses); failures are forgotten AXES_COOLOFF_TIME (a day) after the
  last one.

So the player from their own address is never refused because of anyone else's wrong passwords, and a
guesser gets about thirty tries a day per username and address once the free ones are spent.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, Sum
from django.http import JsonResponse
from django.shortcuts import render
from django.utils import timezone


@dataclass(frozen=True)
class Wait:
    """How long the next try from this address waits, and why: for one `username`, or for the address."""

    until: datetime
    username: str | None

    @property
    def seconds(self) -> int:
        return max(1, math.ceil((self.until - timezone.now()).total_seconds()))

    @property
    def in_words(self) -> str:
        seconds = self.seconds
        if seconds < 90:
            return f"{seconds} seconds"
        minutes = math.ceil(seconds / 60)
        return f"{minutes} minutes"


def delay_after(failures: int, free: int) -> timedelta:
    """The wait after `failures` wrong passwords, the first `free` of them costing nothing."""
    if failures < free:
        return timedelta(0)
    seconds = settings.GENIUS_LOGIN_DELAY_SECONDS * 2 ** min(failures - free, 32)
    return timedelta(seconds=min(seconds, settings.GENIUS_LOGIN_DELAY_MAX_SECONDS))


def wait_for(request, credentials: dict | None = None) -> Wait | None:
    """The wait the next try from this request's address (for its username) has left, if any."""
    address = getattr(request, "axes_ip_address", None)
    if address is None:
        return None
    username = get_client_username(request, credentials)
    now = timezone.now()
    recent = AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=now - get_cool_off(request))
    counts = [
        (recent.filter(username=username), settings.AXES_FAILURE_LIMIT, username),
        (recent, settings.GENIUS_LOGIN_ADDRESS_FREE_TRIES, None),
    ]
    longest = None
    for attempts, free, whose in counts:
        seen = attempts.aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
        if not seen["failures"]:
            continue
        until = seen["last"] + delay_after(seen["failures"], free)
        if until > now and (longest is None or until > longest.until):
            longest = Wait(until=until, username=whose)
    return longest


class LoginDelays(AxesDatabaseHandler):
    """axes' database handler, with the growing delay in place of its lock (AXES_HANDLER)."""

    def is_locked(self, request, credentials: dict | None = None) -> bool:
        return wait_for(request, credentials) is not None

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        # The failure that starts a wait is answered with the wait, so nobody tries again in vain.
        if request is not None and not getattr(request, "axes_locked_out", False):
            if wait_for(request, credentials) is not None:
                request.axes_locked_out = True
                request.axes_credentials = credentials

    def reset_user_attempts(self, request, credentials: dict | None = None) -> int:
        # The right password clears its own (username, address) count only.
        username = get_client_username(request, credentials)
        deleted, _ = AccessAttempt.objects.filter(
            username=username, ip_address=request.axes_ip_address
        ).delete()
        return deleted


def lockout_response(request, original_response=None, credentials: dict | None = None):
    """What a person (or an API client) reads while their next try waits (AXES_LOCKOUT_CALLABLE): 429 with
    Retry-After, the wait in words, and what to do meanwhile."""
    wait = wait_for(request, credentials) or Wait(
        until=timezone.now() + timedelta(seconds=settings.GENIUS_LOGIN_DELAY_SECONDS),
        username=get_client_username(request, credentials),
    )
    if wait.username:
        why = f"There were too many wrong passwords for {wait.username} from your address."
    else:
        why = "There were too many wrong passwords from your address."
    if request.path.startswith("/api/"):
        answer = JsonResponse({"detail": f"{why} Try again in {wait.in_words}."}, status=429)
    else:
        answer = render(request, "account/login_delayed.html", {"why": why, "wait": wait}, status=429)
    answer["Retry-After"] = str(wait.seconds)
    return answer
