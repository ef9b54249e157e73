"""Arms Race as a platform game type: a live match of decisions on turn clocks, over the pure rules."""

from __future__ import annotations

import random
from pathlib import Path

from games.platform.kit import Ledger, RulesError
from games.platform.models import TurnClock
from games.platform.registry import MAIN_MATCH, GameType, Outcome, Pending
from genius.clock import site_now

from . import rules
from .describe import describe
from .hidden import deal_summary, hidden_data
from .models import Deal
from .names import named_error, rules_names
from .observation import observe
from .perturb import hidden_perturb
from .rules import Phase, State
from .settings import (
    DECISIONS,
    DESCRIBED,
    MAX_PLAYERS,
    MIN_PLAYERS,
    decision_seconds,
    default_settings,
    rules_settings,
    settings_problems,
)
from .store import dump, load


def outcome(state: State, events: list) -> Outcome:
    return Outcome(state=dump(state), events=events, finished=state.phase == Phase.OVER)


class ArmsRace(GameType):
    slug = "arms_race"
    name = "Arms Race"
    match_kind = MAIN_MATCH
    flow = "turns"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    page_template = "arms_race/page.html"
    guide_file = str(Path(__file__).with_name("guide.md"))  # the rules page: /rules/arms_race/
    poll_seconds = 1

    # -- set-up -------------------------------------------------------------------------------------------
    def default_settings(self) -> dict:
        return default_settings()

    def settings_described(self):
        return DESCRIBED

    def settings_problems(self, settings: dict) -> list[str]:
        return settings_problems(settings)

    def rules_settings(self, game) -> rules.Settings:
        return rules_settings(game.settings, game.seats.count())

    def hidden_problems(self, game) -> list[str]:
        deal = Deal.objects.filter(game=game).first()
        if deal is None:
            return []  # no deal by hand: the rules shuffle one from the game's seed
        settings = self.rules_settings(game)
        summary = deal_summary(deal.hands, settings.players, settings.hand_size)
        return [f"the deal is a draft: {summary}"] if summary else []

    def hidden_data_set(self, game, data: dict) -> None:
        hands = data.get("deal")
        if not (isinstance(hands, list) and all(isinstance(h, list) for h in hands)):
            raise RulesError('Send {"deal": [one list of weapon names per seat]}.', field="deal")
        Deal.objects.update_or_create(game=game, defaults={"hands": hands})

    def hidden_data(self, game) -> dict:
        return hidden_data(game)

    def demo_prepare(self, game) -> None:
        """A demo game gets its deal written down from the seed, so the host finds it in the admin."""
        Deal.objects.update_or_create(game=game, defaults={"hands": hidden_data(game)["deal"]})

    def start(self, game) -> Outcome:
        deal = Deal.objects.filter(game=game).first()
        state, events = rules.new_game(
            random.Random(game.seed),
            self.rules_settings(game),
            deal=deal.hands if deal is not None else None,
            names=rules_names(game),
        )
        return outcome(state, events)

    # -- turns --------------------------------------------------------------------------------------------
    def pending(self, game) -> Pending | None:
        state = load(game)
        decision = rules.pending(state)
        if decision is None:
            return None
        kind = DECISIONS[decision["kind"]][0]
        seconds = float(decision_seconds(game.settings, decision["kind"]))
        if decision["kind"] == "wild_card":
            # One shared window for the whole break: the clock names the first player still deciding.
            key = f"wild-{decision['round']}"
            return Pending(decision["seats"][0], kind, self.window_left(game, key, seconds), key)
        step = len(state.flight.claims) if state.flight is not None else 0
        key = f"{state.round}-{state.turn}-{decision['kind']}-{step}"
        return Pending(decision["seats"][0], kind, seconds, key)

    def window_left(self, game, key: str, seconds: float) -> float:
        """What is left of the break's window once it has opened; the whole window when it opens."""
        clock = TurnClock.objects.filter(game=game, turn_key=key, deadline__isnull=False).first()
        if clock is None:
            return seconds
        return max((clock.deadline - site_now()).total_seconds(), 0.0)

    def describe_submission(self, game, payload) -> str:
        return describe(game, payload)

    def apply_action(self, game, seat, payload: dict) -> Outcome:
        if not isinstance(payload, dict):
            raise RulesError("An action names its type.", field="type")
        state = load(game)
        try:
            new_state, events = rules.apply(state, seat.number, payload)
        except RulesError as error:
            raise named_error(game, error) from None
        if payload.get("type") == "buy_wild":
            # The rules record the card; the season pays for it. A short balance refuses the whole purchase.
            price = state.settings.wild_card_price
            events = [Ledger(seat.number, "garnets", -price, "Arms Race: bought a wild card"), *events]
        return outcome(new_state, events)

    def on_clock_expired(self, game, seat_number: int) -> Outcome:
        state = load(game)
        decision = rules.pending(state)
        if decision is None:
            return outcome(state, [])
        events: list = []
        if decision["kind"] == "wild_card":
            # The break's window closed: everyone who has not decided declines.
            for seat in decision["seats"]:
                state, more = rules.apply_timeout(state, seat)
                events += more
            return outcome(state, events)
        state, events = rules.apply_timeout(state, decision["seats"][0])
        return outcome(state, events)

    def on_absent(self, game, seat_numbers: list[int]) -> Outcome:
        """Absent at the start time, when the hosts chose "loses": an absent player is the sole loser, so
        the Elimination Candidate (docs/rulings/arms_race.md, "An absent player")."""
        return outcome(*rules.end_absent(load(game), seat_numbers))

    def reserve_seconds(self, game) -> float:
        return float(game.settings.get("reserve_seconds", 0))

    def reserve_increment(self, game) -> float:
        return float(game.settings.get("reserve_increment", 30))

    def deciding_seats(self, game) -> list[int] | None:
        """In a wild card break everyone who has not decided decides at once. Who they are is public: the
        rules' pending decision is part of the public view (ruling 26); whether one bought is not."""
        decision = rules.pending(load(game)) if game.state else None
        return list(decision["seats"]) if decision else None

    # -- the season around the game -----------------------------------------------------------------------
    def elimination_candidate(self, game) -> int | None:
        """The sole loser is the Elimination Candidate: three wounds of one type, or the most wounds after
        the last round (tie-breaks drawn from the seed)."""
        if not game.state:
            return None
        outcome = load(game).outcome
        return outcome.loser if outcome is not None else None

    # -- the proof that nothing hidden leaks ----------------------------------------------------------------
    def hidden_perturb(self, game, seat_number: int | None, rng) -> list[str]:
        return hidden_perturb(game, seat_number, rng)

    # -- the one door -------------------------------------------------------------------------------------
    def observation(self, game, viewer) -> dict:
        return observe(game, viewer)
