"""The host-run game type: the hosts write the rules, the round forms and each round's results."""

from __future__ import annotations

from games.platform.registry import GameType


class HostRun(GameType):
    flow = "rounds"
    min_players = 2
    max_players = 30

    def __init__(self, slug: str, name: str, match_kind: str):
        self.slug = slug
        self.name = name
        self.match_kind = match_kind

    def elimination_candidate(self, game):
        return ((game.state or {}).get("final") or {}).get("candidate")

    def match_loser(self, game):
        return ((game.state or {}).get("final") or {}).get("candidate")
