"""Middle Marathon as a platform game type: a live two-player match on turn clocks, over the pure rules."""

from __future__ import annotations

from pathlib import Path

from games.platform.kit import Announce, Ledger, seat_ref
from games.platform.registry import DEATH_MATCH, GameType, Outcome, Pending

from . import rules
from .describe import describe
from .names import player
from .observation import observe
from .perturb import hidden_perturb
from .rules.pieces import seat_name
from .settings import DESCRIBED, clock, default_settings, first_player, rules_settings, settings_problems
from .store import dump, load

# What the clock says is owed, by the rules' decision kind (the clock's label holds 40 characters).
DECISION_WORDS = {
    "force_companion": "Force's companion",
    "force_lock": "Force's lock",
    "gravity": "Gravity's targets",
    "reflect": "Reflect's reflection",
    "reflect_reverse": "Reflect's reversal",
    "swap": "Swap's partner",
    "discard": "Movement's discard",
}


def choices_made_this_turn(state: rules.State) -> int:
    """Interactions already answered in this turn: forced resolutions asked nobody, so they do not count."""
    return sum(1 for d in state.decisions if d["turn"] == state.turn and not d["forced"])


class MiddleMarathon(GameType):
    slug = "middle_marathon"
    name = "Middle Marathon"
    match_kind = DEATH_MATCH
    flow = "turns"
    min_players = 2
    max_players = 2
    page_template = "middle_marathon/page.html"
    guide_file = str(Path(__file__).with_name("guide.md"))  # the rules page: /rules/middle_marathon/
    poll_seconds = 1

    # -- set-up -------------------------------------------------------------------------------------------
    def default_settings(self) -> dict:
        return default_settings()

    def settings_described(self):
        return DESCRIBED

    def settings_problems(self, settings: dict) -> list[str]:
        return settings_problems(settings)

    def start(self, game) -> Outcome:
        first = first_player(game.settings, game.seed)
        state = rules.new_game(rules_settings(game.settings), first)
        events = [
            Announce(
                f"{seat_ref(0)} plays Blue and {seat_ref(1)} plays Red. "
                f"The DMO chose {player(first)} to go first.",
                {"first_player": first},
            ),
            Announce(f"Turn 1: {seat_name(first)} to play", {"turn": 1, "seat": first}),
        ]
        return Outcome(state=dump(state), events=events)

    # -- turns --------------------------------------------------------------------------------------------
    def pending(self, game) -> Pending | None:
        """The turn, or the decision on top of the stack, with the time the rules give it."""
        state = load(game)
        waiting = rules.pending(state)
        if waiting["kind"] == "over":
            return None
        turn_key = str(state.turn)
        if waiting["kind"] == "turn":
            seconds = clock(game.settings, "turn_seconds")
            return Pending(waiting["seat"], "turn", seconds, turn_key)
        # Each interaction gets its own label, so the clock sees a new one even when the same player
        # answers twice in a row, and adds the interaction's time each time.
        number = choices_made_this_turn(state) + 1
        label = f"choice {number}: {DECISION_WORDS[waiting['decision']]}"
        setting = "off_turn_decision_seconds" if waiting["off_turn"] else "interaction_seconds"
        return Pending(waiting["seat"], label, clock(game.settings, setting), turn_key)

    def describe_submission(self, game, payload) -> str:
        return describe(game, payload)

    def apply_action(self, game, seat, payload: dict) -> Outcome:
        state, events = rules.apply(load(game), seat.number, payload)
        return self.outcome(game, state, events)

    def on_clock_expired(self, game, seat_number: int) -> Outcome:
        """ "Running out of reserve time is an instant loss." """
        state, events = rules.timeout(load(game), seat_number)
        return self.outcome(game, state, events)

    def on_absent(self, game, seat_numbers: list[int]) -> Outcome:
        """Absent at the start time, when the hosts chose "loses": the other player wins (both absent: the
        DMO decides, and nobody is named). docs/rulings/middle_marathon.md, "An absent player"."""
        state, events = rules.absent(load(game), seat_numbers)
        return self.outcome(game, state, events)

    def reserve_seconds(self, game) -> float:
        return clock(game.settings, "reserve_seconds")

    def reserve_increment(self, game) -> float:
        return clock(game.settings, "reserve_increment_seconds")

    def outcome(self, game, state: rules.State, events: list) -> Outcome:
        if state.result is None:
            return Outcome(state=dump(state), events=events)
        events = [*events, *self.result_events(game, state)]
        return Outcome(state=dump(state), events=events, finished=True)

    def result_events(self, game, state: rules.State) -> list:
        """The result in the players' names, and each player's points in the game's ledger."""
        result = state.result
        winner = result["winner"]
        verdict = "The DMO wins: a draw." if winner is None else f"{player(winner)} wins."
        if winner is None and result.get("ended_because") == "absent":
            verdict = "Nobody wins: the DMO decides."
        scores = result["scores"]
        if scores is None:
            text = f"Result: {result['reason']}. {verdict}"
        else:
            text = (
                f"Final scores: {player(0)} {scores[0]}, {player(1)} {scores[1]}. "
                f"{verdict} ({result['reason']})"
            )
        events: list = [Announce(text, {"winner": winner, "draw": result["draw"], "scores": scores})]
        for seat, points in enumerate(scores or []):
            if points:
                events.append(Ledger(seat, "points", points, "Middle Marathon: placements"))
        return events

    # -- the season around the game -----------------------------------------------------------------------
    def match_loser(self, game) -> int | None:
        """The player who did not win (on points, the tie-break ladder or the clock); None if the DMO wins."""
        if not game.state:
            return None
        result = load(game).result
        if result is None or result["winner"] is None:
            return None
        return 1 - result["winner"]

    # -- the one door -------------------------------------------------------------------------------------
    def observation(self, game, viewer) -> dict:
        return observe(game, viewer)

    # -- the proof that nothing hidden leaks ---------------------------------------------------------------
    def hidden_perturb(self, game, seat_number: int | None, rng) -> list[str]:
        return hidden_perturb(game, seat_number, rng)
