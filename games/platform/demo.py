"""The demo: its season's name and its people, with the passwords the demo gives them.

`manage.py load_demo` creates them; `manage.py serve_all --demo` prints them last, once the site answers;
the home page lists them while the site runs with DEBUG on (the demo's mode), never in production.
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.color import color_style

from .models import Season
from .services.invitations import invitation_create, invitation_standing

DEMO_SEASON = "Demo Season"

# (username, password, host)
DEMO_PEOPLE: list[tuple[str, str, bool]] = [
    ("host", "host-demo-pass", True),
    *((f"player{i}", f"player{i}-pass", False) for i in range(1, 11)),
    ("spectator", "spectator-pass", False),
]


def login_lines() -> list[str]:
    """The demo's logins as `make run` prints them."""
    return [
        f"  {username:10} {password}{'   (host: /admin/)' if host else ''}"
        for username, password, host in DEMO_PEOPLE
    ]


def demo_logins() -> list[dict]:
    """The logins the home page shows, the ten players in one row: only with DEBUG on and the demo season
    loaded."""
    if not settings.DEBUG or getattr(settings, "PRODUCTION", False):
        return []
    if not Season.objects.filter(name=DEMO_SEASON).exists():
        return []
    players = [(u, p) for u, p, host in DEMO_PEOPLE if u.startswith("player")]
    (host, host_password, _), spectator = DEMO_PEOPLE[0], DEMO_PEOPLE[-1]
    return [
        {"who": "The host", "username": host, "password": host_password, "does": "runs the games"},
        {
            "who": f"{len(players)} players",
            "username": f"{players[0][0]} … {players[-1][0]}",
            "password": f"{players[0][1]} … {players[-1][1]}",
            "does": "play them",
        },
        {"who": "A spectator", "username": spectator[0], "password": spectator[1], "does": "watches"},
    ]


def greeting(season: Season, host, base_url: str) -> list[str]:
    """The demo's logins and its open invitation (made if there is none), as the terminal shows them."""
    style = color_style()
    invitation = next(
        (
            i
            for i in season.invitations.order_by("-id")
            if invitation_standing(i).usable and i.max_uses is None
        ),
        None,
    ) or invitation_create(season=season, actor=host, hours=24 * 90, note="demo: open to anyone")
    return [
        style.SUCCESS("Demo logins (demo only, change them anywhere real):"),
        *login_lines(),
        style.SUCCESS("Invite new players (sign up and join the demo season in one step):"),
        f"  {base_url.rstrip('/')}/join/{invitation.token}/",
    ]
