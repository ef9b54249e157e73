"""Arms Race as a platform game type: a live match of decisions on turn clocks, over the pure rules."""

from __future__ import annotations

import random

from django.utils import timezone

from games.platform.kit import Ledger, RulesError
from games.platform.models import Event, TurnClock
from games.platform.registry import MAIN_MATCH, GameType, Outcome, Pending

from . import options, rules
from .deal import deal_problems, shuffled_hands
from .models import Deal
from .rules import Phase, State
from .rules.attack import seen_reveal
from .rules.flow import hand_reveal
from .rules.hidden import dealt_hands, flight_hidden, twin
from .table import observe_table

# The clock's label for each kind of decision, and the setting that gives its time.
DECISIONS = {
    "attack": ("attack", "attack_seconds"),
    "respond": ("challenge or pass", "respond_seconds"),
    "redirect": ("redirect", "redirect_seconds"),
    "wild_card": ("wild card", "wild_seconds"),
}


def load(game) -> State:
    return rules.state_from_json(game.state)


def outcome(state: State, events: list) -> Outcome:
    return Outcome(state=rules.state_to_json(state), events=events, finished=state.phase == Phase.OVER)


def names(game) -> list[str]:
    return [seat.user.username for seat in game.seats.select_related("user").order_by("number")]


class ArmsRace(GameType):
    slug = "arms_race"
    name = "Arms Race"
    match_kind = MAIN_MATCH
    flow = "turns"
    # A Main Match for seven; the deal of nine cards each also serves a smaller table.
    min_players = 3
    max_players = 7
    page_template = "arms_race/table.html"
    poll_seconds = 1

    # -- set-up -------------------------------------------------------------------------------------------
    def default_settings(self) -> dict:
        return options.default_settings()

    def settings_problems(self, settings: dict) -> list[str]:
        return options.settings_problems(settings)

    def rules_settings(self, game) -> rules.Settings:
        return options.rules_settings(game.settings, game.seats.count())

    def hidden_problems(self, game) -> list[str]:
        deal = Deal.objects.filter(game=game).first()
        if deal is None:
            return []  # no deal by hand: the rules shuffle one from the game's seed
        settings = self.rules_settings(game)
        return [f"the deal: {p}" for p in deal_problems(deal.hands, settings.players, settings.hand_size)]

    def hidden_data_set(self, game, data: dict) -> None:
        hands = data.get("deal")
        if not (isinstance(hands, list) and all(isinstance(h, list) for h in hands)):
            raise RulesError('Send {"deal": [one list of weapon names per seat]}.', field="deal")
        Deal.objects.update_or_create(game=game, defaults={"hands": hands})

    def hidden_data(self, game) -> dict:
        """The deal as it was at the start: the host's, or the shuffle from the seed."""
        deal = Deal.objects.filter(game=game).first()
        if deal is not None:
            return {"deal": deal.hands, "dealt_by": "host"}
        if game.seats.count() < self.min_players:
            return {"deal": [], "dealt_by": "seed"}
        return {"deal": shuffled_hands(game, self.rules_settings(game)), "dealt_by": "seed"}

    def demo_prepare(self, game) -> None:
        """A demo game gets its deal written down from the seed, so the host finds it in the admin."""
        Deal.objects.update_or_create(game=game, defaults={"hands": self.hidden_data(game)["deal"]})

    def start(self, game) -> Outcome:
        deal = Deal.objects.filter(game=game).first()
        state, events = rules.new_game(
            random.Random(game.seed),
            self.rules_settings(game),
            deal=deal.hands if deal is not None else None,
            names=names(game),
        )
        return outcome(state, events)

    # -- turns --------------------------------------------------------------------------------------------
    def pending(self, game) -> Pending | None:
        state = load(game)
        decision = rules.pending(state)
        if decision is None:
            return None
        kind, setting = DECISIONS[decision["kind"]]
        seconds = float(game.settings.get(setting, options.CLOCK_DEFAULTS[setting]))
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
        return max((clock.deadline - timezone.now()).total_seconds(), 0.0)

    def apply_action(self, game, seat, payload: dict) -> Outcome:
        if not isinstance(payload, dict):
            raise RulesError("An action names its type.", field="type")
        state = load(game)
        new_state, events = rules.apply(state, seat.number, payload)
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

    def reserve_seconds(self, game) -> float:
        return float(game.settings.get("reserve_seconds", 0))

    def reserve_increment(self, game) -> float:
        return float(game.settings.get("reserve_increment", 30))

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
        """Deal again all that `seat_number` (None: spectators) may not see, as the game might have gone."""
        state = load(game)
        others = [s for s in range(state.players) if s != seat_number]
        deal = self.hidden_data(game)["deal"]
        # The game's seed draws the rules' seed at the start: a new pair, as a fresh game would have.
        game.seed = random.Random(f"{rng.random()}").getrandbits(62)
        new = twin(state, seat_number, rng, seed=random.Random(game.seed).getrandbits(64))
        game.state = rules.state_to_json(new)
        game.save(update_fields=["seed", "state"])
        # The deal of the others is what they hold now plus what they played; the seat keeps its own line.
        dealt = dealt_hands(new)
        hands = [deal[s] if s == seat_number else [w.value for w in dealt[s]] for s in range(state.players)]
        Deal.objects.update_or_create(game=game, defaults={"hands": hands})
        # Their private messages tell the new story: the hand they were dealt, the weapon they looked at.
        reveals = Event.objects.filter(game=game, kind=Event.Kind.REVEAL).select_related("seat")
        rewritten = {}
        for event in reveals.filter(data__event="hand").exclude(seat__number=seat_number):
            rewritten[event] = hand_reveal(event.seat.number, dealt[event.seat.number])
        if flight_hidden(state, seat_number):
            passers = len(new.flight.seen) - 1
            for event in reveals.filter(data__event="seen").order_by("-id")[:passers]:
                rewritten[event] = seen_reveal(new, event.seat.number)
        # A purchase's message and its ledger rows stay: a changed number of purchases would need rows in
        # the past (and the garnets they cost are public in the season's standings anyway).
        for event, reveal in rewritten.items():
            event.text, event.data = reveal.text, reveal.data
        Event.objects.bulk_update(list(rewritten), ["text", "data"])
        changed = [
            f"the hands of {', '.join(state.names[s] for s in others)}, their deal and hand messages",
            "the undealt cards",
            "the seed",
        ]
        if flight_hidden(state, seat_number):
            changed.append(f"the weapon in flight and {passers} passers' messages about it")
        if state.settings.wild_cards_offered:
            changed.append("the others' wild cards")
        return changed

    # -- the one door -------------------------------------------------------------------------------------
    def observation(self, game, viewer) -> dict:
        if not game.state:
            view: dict = {"phase": "not_started", "players": []}
            if viewer.role == "host":
                view["deal"] = self.hidden_data(game)
            return view
        state = load(game)
        if viewer.role == "host" or game.status == "finished":
            view = rules.full_view(state)
            view["deal"] = self.hidden_data(game)
        elif viewer.role == "player":
            view = rules.seat_view(state, viewer.seat_number)
        else:
            view = rules.public_view(state)
        view["time_limits"] = {
            kind: game.settings.get(setting, options.CLOCK_DEFAULTS[setting])
            for kind, (_, setting) in DECISIONS.items()
        }
        return observe_table(view)
