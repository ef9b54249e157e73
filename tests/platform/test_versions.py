"""The game's version every process reads: shared through the cache, raised after commits, never lowered."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from redis.exceptions import ConnectionError as RedisConnectionError

from games.platform import versions
from games.platform.models import Game
from games.platform.services.events import announcement_post

pytestmark = pytest.mark.django_db


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
