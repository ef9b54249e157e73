"""How long one round resolution (or one live move) takes for every registered game type, and its queries.

Each registered type is played at its own size (Tally at 10 and, as "tally_30", at 30 players), with the
plays of tests/proof/test_resolution_counts.py: a fresh game is started on its demo data, every seat saves a
valid submission for the open round (flow "rounds"; where the round waits for its hosts, as in the host-run
games, their sent results are written too, untimed) or the seat the game waits on picks a legal move (flow
"turns"), and only the step itself is timed: `rounds.round_resolve` or `live.action_apply`, through their
commit. The tasks they queue once committed (notifications, webhooks) are not sent, and not timed.

`measure(repeats)` runs inside an already configured Django (the benchmark's database); `main()` sets Django
up from the environment, like bench/seed.py, and prints the results as one JSON line:

    DATABASE_URL=postgres://... GENIUS_GAME_MODULES=tests.toy_game python bench/resolution.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(repeats: int) -> dict:
    """{type: {"players", "median_ms", "max_ms", "queries"}} over `repeats` fresh games per type.

    One more game per type is played first, untimed, to warm the process and count the step's queries. The
    games, players and season made here are deleted at the end.
    """
    from unittest import mock

    from celery.app.task import Task
    from django.contrib.auth import get_user_model
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from games.platform import registry
    from games.platform.models import Game, Season
    from tests.proof.test_resolution_counts import (
        every_case,
        game_ready,
        players_for,
        register_test_types,
        step_prepare,
    )

    if repeats < 1:
        raise ValueError("repeats must be at least 1")
    added = register_test_types()
    tag = f"resbench-{secrets.token_hex(3)}"
    User = get_user_model()
    host = User.objects.create_user(f"{tag}-host", is_staff=True)
    most = max(players_for(registry.get(slug)) for slug in every_case())
    users = [User.objects.create_user(f"{tag}-p{i}") for i in range(most)]
    season = Season.objects.create(name=f"Resolution benchmark {tag}")
    season.hosts.add(host)
    results: dict = {}
    try:
        with mock.patch.object(Task, "apply_async", lambda *args, **kwargs: None):
            for slug in every_case():
                times, queries = [], None
                for attempt in range(repeats + 1):
                    game = game_ready(slug, season=season, host=host, users=users)
                    step = step_prepare(game)
                    if attempt == 0:
                        reset_queries()  # with DEBUG on, a full query log would count nothing
                        with CaptureQueriesContext(connection) as captured:
                            problem = step()
                        queries = len(captured.captured_queries)
                    else:
                        began = time.perf_counter()
                        problem = step()
                        times.append(time.perf_counter() - began)
                    if problem is not None:
                        raise RuntimeError(problem)
                results[slug] = {
                    "players": players_for(registry.get(slug)),
                    "median_ms": round(1000 * statistics.median(times), 2),
                    "max_ms": round(1000 * max(times), 2),
                    "queries": queries,
                }
    finally:
        Game.objects.filter(season=season).delete()
        season.delete()
        User.objects.filter(pk__in=[host.pk, *(u.pk for u in users)]).delete()
        for slug in added:
            registry.unregister(slug)
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20, help="timed fresh games per type (default 20)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "genius.settings")
    import django

    django.setup()
    print(json.dumps(measure(args.repeats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
