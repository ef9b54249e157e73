"""The benchmark's world: a season with a Tally game of ten players and a running game of every other type.

Run by bench/run.py inside the benchmark's environment (its own database); prints one JSON line with the
ids, the cookies and tokens the load driver needs (the host's token and the season make the live matches).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

# The checkout whose site is measured: this one, or the one `bench/run.py --source` names.
sys.path.insert(0, os.environ.get("GENIUS_BENCH_SOURCE") or str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "genius.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from games.platform import registry  # noqa: E402
from games.platform.models import Game, Season  # noqa: E402
from games.platform.services import games as game_services  # noqa: E402
from games.platform.services.sitting import here_say  # noqa: E402

PLAYERS = 10


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def main() -> None:
    User = get_user_model()
    host = User.objects.create_user("bench-host", is_staff=True)
    players = [User.objects.create_user(f"bench-p{i}") for i in range(PLAYERS)]
    season = Season.objects.create(name="Benchmark season")
    season.hosts.add(host)
    started, not_started = {}, {}
    for kind in registry.all_types():
        seats = min(kind.max_players, max(kind.min_players, PLAYERS))
        if seats > len(players):
            not_started[kind.slug] = f"needs {seats} players"
            continue
        try:
            game = game_services.game_create(
                season=season,
                game_type=kind.slug,
                name=f"Bench {kind.name}",
                hosts=[host],
                settings={"window_minutes": 24 * 60},
                actor=host,
            )
            for user in players[:seats]:
                game_services.game_seat(game=game, user=user, actor=host)
            kind.demo_prepare(game)
            game_services.game_start(game=game, actor=host)
            for seat in game.seats.all():  # a live match's players sit down: its clocks run, as measured
                here_say(seat=seat)
        except Exception as exc:  # reported in the results, never silently left out
            not_started[kind.slug] = f"{type(exc).__name__}: {exc}"
            continue
        started[kind.slug] = game.id
    tally = Game.objects.get(pk=started["tally"])
    print(
        json.dumps(
            {
                "game_id": tally.id,
                "version": tally.version,
                "round": tally.rounds.order_by("-number").first().number,
                "games": started,
                "not_started": not_started,
                "player_cookies": [session_cookie(u) for u in players],
                "player_tokens": [Token.objects.create(user=u).key for u in players],
                "player_names": [u.username for u in players],
                "host_token": Token.objects.create(user=host).key,
                "season_id": season.id,
                "cookie_name": settings.SESSION_COOKIE_NAME,
            }
        )
    )


if __name__ == "__main__":
    main()
