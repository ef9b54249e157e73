"""Blackout Middle Horse Race as a platform game type: windows, forms, resolution, operations, the door."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from django.db.models import Count

from games.platform.kit import Announce, Ledger, RulesError
from games.platform.registry import MAIN_MATCH, Deciders, GameType, Outcome

from . import decisions
from .decisions import LAST_DECISION_ROUND
from .describe import describe
from .forms import DecisionForm, RoundForm, payload_to_initial
from .hidden import movement_from_seed
from .models import MovementTable, TradeOffer
from .names import with_names
from .observation import observe, public_state
from .operations import OPERATIONS, expire_offers
from .perturb import hidden_perturb
from .rules import HORSES, ROUNDS, initial_state, movement_table_problems, resolve_round, validate_submission
from .settings import DESCRIBED, default_settings, rules_settings, settings_problems
from .store import dump, load


def opens(state, number: int) -> bool:
    """Whether round `number` opens: Rounds 0-10 always; after Round 10 only while the ending waits on a
    decision (`state` is the rules state as the round before it left it)."""
    if number > LAST_DECISION_ROUND:
        return False
    if number > ROUNDS:
        return state is not None and decisions.decision_now(state) is not None
    return True


class HorseRace(GameType):
    slug = "horse_race"
    name = "Blackout Middle Horse Race"
    match_kind = MAIN_MATCH
    flow = "rounds"
    min_players = 2  # the match is for 9; smaller tables are allowed for rehearsals (see the rulings)
    max_players = 9
    page_template = "horse_race/page.html"
    guide_file = str(Path(__file__).with_name("guide.md"))  # the rules page: /rules/horse_race/
    pair_template = "horse_race/pair.html"  # trades are offered from the pair chat

    # -- set-up -----------------------------------------------------------------------------------------
    def default_settings(self) -> dict:
        return default_settings()

    def settings_described(self):
        return DESCRIBED

    def settings_problems(self, settings: dict) -> list[str]:
        return settings_problems(settings)

    def hidden_problems(self, game) -> list[str]:
        table = MovementTable.objects.filter(game=game).first()
        if table is None:
            return ["the movement table is missing: enter it in the admin or generate it from the seed"]
        summary = table.summary()
        return [f"the movement table is a draft: {summary}"] if summary else []

    def hidden_data(self, game) -> dict:
        table = MovementTable.objects.filter(game=game).first()
        return {"movement": table.grid if table else None}

    def hidden_data_set(self, game, data: dict) -> None:
        grid = data.get("movement")
        if not isinstance(grid, dict):
            raise RulesError('Send {"movement": {"A": [10 values 1-3], ..., "I": [...]}}.', field="movement")
        MovementTable.objects.update_or_create(game=game, defaults={"grid": grid})

    def demo_prepare(self, game) -> None:
        MovementTable.objects.update_or_create(game=game, defaults={"grid": movement_from_seed(game.seed)})

    def start(self, game) -> Outcome:
        grid = MovementTable.objects.get(game=game).grid
        if movement_table_problems(grid):
            raise RulesError("The movement table is not valid.", field="hidden")
        seats = game.seats.count()
        rules = rules_settings(game.settings)
        state = initial_state(grid, seats, rules)
        events = []
        for seat in range(seats):
            if rules.starting_chips:
                events.append(Ledger(seat, "chips", rules.starting_chips, "Starting chips"))
            events.extend(Ledger(seat, "cards", 1, "Starting hand", horse) for horse in HORSES)
        return Outcome(state=dump(state), events=events)

    # -- rounds -----------------------------------------------------------------------------------------
    def first_round(self, game) -> int:
        return 0

    def round_window(self, game, number: int) -> timedelta | None:
        if number > ROUNDS and not opens(load(game) if game.state else None, number):
            return None  # after Round 10 a round opens only while the ending waits on a decision
        if number > ROUNDS:
            hours = game.settings.get("decision_hours", 24)
        else:
            hours = game.settings["round0_hours"] if number == 0 else game.settings["round_hours"]
        minutes = game.settings.get("window_minutes")
        return timedelta(minutes=minutes) if minutes else timedelta(hours=hours)

    def clean_submission(self, game, seat, round, payload) -> dict:
        state = load(game)
        if round.number > ROUNDS:
            return decisions.clean(state, seat, round.number, payload)
        if state.round != round.number:
            raise RulesError(f"Round {round.number} is not the open round.", field="round")
        return validate_submission(state, seat.number, payload)

    def submission_form(self, game, seat, round, data=None, initial=None):
        state = load(game)
        if round.number > ROUNDS:
            if not decisions.owes(decisions.decision_now(state), seat.number):
                return None  # the page says there is nothing to submit (see the observation's "decision")
            return DecisionForm(data=data, initial=initial, game=game, state=state, round_number=round.number)
        if round.number != state.round:
            return None  # a round the race has left: its form cannot be built from the hands of today
        return RoundForm(data=data, initial=payload_to_initial(initial), state=state, seat=seat.number)

    def owed(self, game, seat, round) -> str | None:
        if round.number > ROUNDS:
            return "decision" if decisions.owes(decisions.decision_now(load(game)), seat.number) else None
        return "submission"

    def deciders(self, game, round) -> Deciders | None:
        """Rounds 11 and 12 are decided by a few: the sole winner's choice, then those who won a ToL vote."""
        if round.number <= ROUNDS or not game.state:
            return None
        decision = decisions.decision_of_round(load(game), round.number)
        if decision is None:
            return None
        return Deciders(decisions.NAMES[decision["kind"]], decisions.deciders(decision))

    def offers_waiting(self, seats) -> dict[int, int]:
        """The open trade offers made to these seats, counted by seat (closed ones, the race's end among them,
        ask nothing)."""
        offers = TradeOffer.objects.filter(offered_to__in=seats, status=TradeOffer.Status.OPEN)
        counted = offers.order_by().values("offered_to").annotate(count=Count("id"))
        return {row["offered_to"]: row["count"] for row in counted}

    def form_to_payload(self, form) -> dict:
        if isinstance(form, RoundForm):
            return form.payload
        return dict(form.cleaned_data)

    def resolve_round(self, game, round, submissions) -> Outcome:
        state = load(game)
        if round.number > ROUNDS:
            state, events = decisions.resolve(game, state, round.number, submissions)
        else:
            if state.round != round.number:
                raise RuntimeError(
                    f"Round {round.number} closed but the rules state has Round {state.round} open."
                )
            state, events = resolve_round(state, submissions)
            if state.over:
                expire_offers(game)
        # The feed says where the race is between the results: "Round 3 closed." ... "Round 4 is open."
        events = [Announce(f"Round {round.number} closed.", {"round": round.number}), *events]
        if opens(state, round.number + 1):
            events.append(Announce(f"Round {round.number + 1} is open.", {"round": round.number + 1}))
        return Outcome(state=dump(state), events=with_names(game, events))

    def describe_submission(self, game, payload) -> str:
        return describe(game, payload)

    # -- between the rounds -----------------------------------------------------------------------------
    def operations(self) -> dict:
        return dict(OPERATIONS)

    # -- the season around the game ---------------------------------------------------------------------
    def elimination_candidate(self, game) -> int | None:
        """Fewest points, or the EC vote's result (its decision round): the ending names the seat."""
        if not game.state:
            return None
        ending = load(game).ending
        return ending.elimination_candidate if ending is not None else None

    # -- the one door -----------------------------------------------------------------------------------
    def observation(self, game, viewer) -> dict:
        return observe(game, viewer)

    def public_state(self, state: dict) -> dict:
        return public_state(state)

    # -- the proof that nothing hidden leaks --------------------------------------------------------------
    def hidden_perturb(self, game, seat_number: int | None, rng) -> list[str]:
        return hidden_perturb(game, seat_number, rng)
