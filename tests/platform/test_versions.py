"""The game's version every process reads: shared through the cache, raised after commits, never lowered."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from redis.exceptions import ConnectionError as RedisConnectionError

from games.platform import versions
from games.platform.models import Game
from games.platform.services.events import announcement_post

pytestmark = [pytest.mark.django_db, pytest.mark.services]

ROOT = Path(__file__).resolve().parents[2]

# A process just started (a gunicorn worker after a deploy, a worker that served nothing yet) whose first
# cache call is the raise after its commit: a host's announcement through the API with a token reads no
# session first.
FRESH_PROCESS_MOVES = """
import sys, django
django.setup()
from django.db import transaction
from games.platform.models import Game
from games.platform.services.events import bump_version
with transaction.atomic():
    bump_version(Game(pk=int(sys.argv[1])))
"""


def test_the_kept_version_never_goes_back(tally):
    # A reader that read the row just before a commit may write its number after the commit's: it loses.
    versions._raise(tally.pk, 7)
    versions._raise(tally.pk, 5)
    assert cache.get(versions._key(tally.pk)) == 7


@pytest.mark.django_db(transaction=True)
def test_a_commit_raises_the_version_every_process_reads(tally, monkeypatch):
    old = versions.game_row(tally.pk)
    before = old["version"]
    announcement_post(game=tally, text="News.")  # commits: the number is raised after the commit
    assert cache.get(versions._key(tally.pk)) == before + 1
    # Another process, which still holds the old row in memory, reads the new version.
    monkeypatch.setattr(versions, "_rows", {tally.pk: old})
    assert versions.game_row(tally.pk)["version"] == before + 1


def test_with_the_cache_away_the_version_comes_from_the_database(tally, monkeypatch):
    def away(*args, **kwargs):
        raise RedisConnectionError("Redis is down")

    monkeypatch.setattr(cache, "get", away)
    announcement_post(game=tally, text="News.")
    assert versions.game_row(tally.pk)["version"] == Game.objects.get(pk=tally.pk).version


@pytest.mark.django_db(transaction=True)
def test_a_fresh_process_whose_first_cache_call_is_a_raise_is_seen_by_every_other_at_once(tally):
    if not os.environ.get("REDIS_URL") or "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        pytest.skip("two processes share the version through Redis and a database server")
    before = versions.game_row(tally.pk)["version"]  # this process keeps the row, as a busy worker does
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "genius.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "GENIUS_PAGE_CACHE": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS_MOVES, str(tally.pk)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert Game.objects.get(pk=tally.pk).version == before + 1
    assert versions.game_row(tally.pk)["version"] == before + 1, "the move went to a key nobody reads"
    client = cache._cache.get_client()
    assert client.keys(f"*::{versions._key(tally.pk)}") == [], "a key without the cache's generation"
