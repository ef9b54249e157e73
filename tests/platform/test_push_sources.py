"""The Redis source names its pub/sub connection after the site's prefix, in a form Redis accepts."""

from __future__ import annotations

import asyncio

from games.platform import push_sources


class Refused(OSError):
    pass


def test_a_prefix_with_a_space_gives_the_hub_a_client_name_redis_accepts(settings, monkeypatch):
    # Redis answers CLIENT SETNAME with "Client names cannot contain spaces": the hub took that for a
    # Redis that does not answer, and every stream was a 503.
    settings.GENIUS_PUSH_PREFIX = "stream pool: "
    settings.GENIUS_PUSH_URL = "redis://127.0.0.1:1/0"
    named = {}

    def from_url(url, **options):
        named.update(options)
        raise Refused("no Redis here: only the name given is looked at")

    monkeypatch.setattr(push_sources.Redis, "from_url", from_url)
    source = push_sources.RedisSource()
    try:
        asyncio.run(source.open())
    except push_sources.SourceDown:
        pass
    assert named["client_name"] == "streampool:hub:" + named["client_name"].rsplit(":", 1)[1]
    assert not any(ch.isspace() for ch in named["client_name"])
