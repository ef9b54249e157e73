"""Cards on the Table as a platform game type: the round windows, their forms, resolution and operations."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from games.platform.errors import NotReady
from games.platform.kit import Announce, Ledger, RulesError
from games.platform.registry import MAIN_MATCH, Deciders, GameType, Outcome

from . import decisions
from .decisions import ROUND_OF_LOSER_CHOICE
from .describe import describe, heat_verdicts
from .forms import LoserChoiceForm, RoundForm, payload_to_initial
from .hidden import boards_from_seed, codes_of, codes_problem, indicator_of, overrides_problem
from .models import BoardSet
from .names import seat_names, with_names
from .observation import observe, public_state
from .operations import OPERATIONS
from .perturb import hidden_perturb
from .rules import (
    HEAT_RULES,
    Phase,
    apply_action,
    excuse_round,
    judge_heat_guess,
    new_game,
    resolve_round,
    set_heat_override,
    submit_heat_guess,
    validate_action,
)
from .rules.codec import to_json
from .settings import DESCRIBED, default_settings, rules_settings, settings_problems
from .store import dump, load
from .verdicts import round_verdicts, verdict_for


def points_for_the_ledger(events: list) -> list:
    """One points account per seat: the rules name each entry's round and method in `item`, which goes into
    the reason instead (an item would open an account per round). Points may go negative, as the rules say."""
    return [
        Ledger(e.seat, "points", e.delta, f"{e.item}: {e.reason}")
        if isinstance(e, Ledger) and e.what == "points" and e.delta
        else e
        for e in events
        if not (isinstance(e, Ledger) and e.what == "points" and not e.delta)
    ]


class CardsTable(GameType):
    slug = "cards_table"
    name = "Cards on the Table"
    match_kind = MAIN_MATCH
    flow = "rounds"
    min_players = 2  # the match is for 10; smaller tables are for rehearsals
    max_players = 10
    page_template = "cards_table/page.html"
    guide_file = str(Path(__file__).with_name("guide.md"))  # the rules page: /rules/cards_table/
    form_after_state = True  # the guess of the board sits after the board it is about

    # -- set-up -----------------------------------------------------------------------------------------
    def default_settings(self) -> dict:
        return default_settings()

    def settings_described(self):
        return DESCRIBED

    def settings_problems(self, settings: dict) -> list[str]:
        return settings_problems(settings)

    def hidden_problems(self, game) -> list[str]:
        board_set = BoardSet.objects.filter(game=game).first()
        if board_set is None:
            return ["the three boards are missing: enter them in the admin or generate them from the seed"]
        summary = board_set.summary()
        return [f"the boards are a draft: {summary}"] if summary else []

    def hidden_data(self, game) -> dict:
        if game.state:
            state = load(game)
            return {
                "boards": codes_of(state.boards),
                "heat_rule": state.heat_rule,
                "heat_overrides": to_json(state.heat_overrides),
            }
        board_set = BoardSet.objects.filter(game=game).first()
        if board_set is None:
            return {"boards": None}
        return {
            "boards": board_set.codes,
            "heat_rule": board_set.heat_rule or None,
            "heat_overrides": board_set.heat_overrides,
        }

    def hidden_data_set(self, game, data: dict) -> None:
        codes, rule = data.get("boards"), data.get("heat_rule") or ""
        problem = codes_problem(codes)
        if problem:
            raise RulesError(problem, field="boards")
        if rule and rule not in HEAT_RULES:
            raise RulesError(f"The heat rule is one of {', '.join(sorted(HEAT_RULES))}.", field="heat_rule")
        overrides = data.get("heat_overrides") or []
        problem = overrides_problem(overrides)
        if problem:
            raise RulesError(problem, field="heat_overrides")
        BoardSet.objects.update_or_create(
            game=game, defaults={"codes": codes, "heat_rule": rule, "heat_overrides": overrides}
        )

    def demo_prepare(self, game) -> None:
        BoardSet.objects.update_or_create(game=game, defaults={"codes": boards_from_seed(game)})

    def start(self, game) -> Outcome:
        board_set = BoardSet.objects.get(game=game)
        settings = rules_settings(game.settings, game.seats.count(), board_set.heat_rule or None)
        # The seed draws the heat rule when the host left it to chance; the boards are the host's.
        state = new_game(settings, random.Random(game.seed), board_set.boards())
        for row in board_set.heat_overrides:
            state, _ = set_heat_override(state, row["round"], row["row"], row["col"], indicator_of(row))
        return Outcome(state=dump(state), events=[Announce("Round 1 begins: turn over your cards.")])

    # -- rounds -----------------------------------------------------------------------------------------
    def first_round(self, game) -> int:
        return 1

    def round_window(self, game, number: int) -> timedelta | None:
        if number == ROUND_OF_LOSER_CHOICE:
            if not game.state or load(game).phase is not Phase.CHOOSING_LOSER:
                return None
            hours = game.settings.get("decision_hours", 24)
        elif 1 <= number <= 3:
            hours = game.settings["round_hours"]
        else:
            return None
        minutes = game.settings.get("window_minutes")
        return timedelta(minutes=minutes) if minutes else timedelta(hours=hours)

    def clean_submission(self, game, seat, round, payload) -> dict:
        state = load(game)
        if not isinstance(payload, dict):
            raise RulesError("A submission is a set of guesses.", field="payload")
        if round.number == ROUND_OF_LOSER_CHOICE:
            return decisions.clean(state, seat.number, payload)
        if state.phase is not Phase.PLAYING or state.round != round.number:
            raise RulesError(f"Round {round.number} is not the open round.", field="round")
        cleaned = {"board_guess": None, "top_guess": None, "heat_guess": ""}
        grid = payload.get("board_guess")
        if grid is not None:
            checked, _ = apply_action(state, seat.number, {"type": "board_guess", "grid": grid})
            guess = checked.seat_round(seat.number).board_guess
            cleaned["board_guess"] = [
                [[g.number, g.colour.value if g.colour else None] for g in guess[r * 5 : r * 5 + 5]]
                for r in range(5)
            ]
        top = payload.get("top_guess")
        if top not in (None, ""):
            try:
                top = int(top)
            except (TypeError, ValueError):
                raise RulesError("Name another player of this game.", field="top_guess") from None
            validate_action(state, seat.number, {"type": "top_guess", "seat": top})
            cleaned["top_guess"] = top
        text = payload.get("heat_guess") or ""
        if not isinstance(text, str):
            raise RulesError("Write your heat indicator guess as text.", field="heat_guess")
        if text.strip():
            validate_action(state, seat.number, {"type": "heat_guess", "text": text})
            cleaned["heat_guess"] = text.strip()
        return cleaned

    def deciders(self, game, round) -> Deciders | None:
        """Round 4, when it opens, is the winners' choice of the elimination candidate: only they decide."""
        if round.number != ROUND_OF_LOSER_CHOICE or not game.state:
            return None
        final = load(game).final
        winners = list(final.winners) if final is not None else []
        return Deciders("the winners' choice of the elimination candidate", winners)

    def owed(self, game, seat, round) -> str | None:
        if round.number == ROUND_OF_LOSER_CHOICE:
            state = load(game)
            return "decision" if state.final is not None and seat.number in state.final.winners else None
        return "submission"

    def submission_form(self, game, seat, round, data=None, initial=None):
        state = load(game)
        names = seat_names(game)
        if round.number == ROUND_OF_LOSER_CHOICE:
            if state.final is None or seat.number not in state.final.winners:
                return None  # only the winners choose; the page says who is choosing
            candidates = [(n, names[n]) for n in state.final.loser_candidates]
            return LoserChoiceForm(data=data, initial=initial, candidates=candidates)
        others = [(n, name) for n, name in sorted(names.items()) if n != seat.number]
        return RoundForm(
            data=data,
            initial=payload_to_initial(initial),
            round_number=round.number,
            others=others,
            heat_open=state.heat_guesses[seat.number] is None,
        )

    def form_to_payload(self, form) -> dict:
        if isinstance(form, RoundForm):
            return form.payload
        return dict(form.cleaned_data)

    def resolve_round(self, game, round, submissions) -> Outcome:
        state = load(game)
        if round.number == ROUND_OF_LOSER_CHOICE:
            state, events = decisions.resolve(game, state, submissions)
            return Outcome(state=dump(state), events=events, finished=True)
        if state.round != round.number:
            raise RuntimeError(
                f"Round {round.number} closed but the rules state has Round {state.round} open."
            )
        waiting = []
        verdicts = round_verdicts(game, round.number)
        for seat, payload in sorted(submissions.items()):
            # The guesses were checked when saved; applied now, their "saved" notices are not news.
            if payload.get("board_guess") is not None:
                state, _ = apply_action(state, seat, {"type": "board_guess", "grid": payload["board_guess"]})
            if payload.get("top_guess") is not None:
                state, _ = apply_action(state, seat, {"type": "top_guess", "seat": payload["top_guess"]})
            if payload.get("heat_guess"):
                state, _ = submit_heat_guess(state, seat, payload["heat_guess"])
                verdict = verdict_for(verdicts, seat, payload["heat_guess"])
                if verdict is None:
                    waiting.append(seat)
                else:
                    state, _ = judge_heat_guess(state, seat, verdict)
        if waiting:
            names = seat_names(game)
            # The platform's sweep waits for the verdict without counting a failure.
            raise NotReady(
                f"Round {round.number} cannot close yet: the heat indicator guess of "
                + ", ".join(f"{names[s]} (seat {s + 1})" for s in waiting)
                + " waits for a host's verdict. Judge it on the game page or its admin page; the round then "
                + "resolves."
            )
        state, events = resolve_round(state)
        events = points_for_the_ledger(events)
        return Outcome(
            state=dump(state), events=with_names(game, events), finished=state.phase is Phase.ENDED
        )

    def describe_submission(self, game, payload) -> str:
        return describe(game, payload)

    def verdicts(self, game):
        return heat_verdicts(game)

    def round_excuse(self, game, seat_number: int, round_number: int) -> str:
        # "Players must do each of these actions once across the 3 rounds. Failure to do so will result in
        # your total score being set to 3": the excused round's missing action is not asked of the seat.
        game.state = dump(excuse_round(load(game), seat_number, round_number))
        return (
            "The action it did not carry out that round is not asked of it: its total is not set to 3 for "
            "that (docs/rulings/cards_table.md)."
        )

    # -- during the window ------------------------------------------------------------------------------
    def operations(self) -> dict:
        return dict(OPERATIONS)

    # -- the season around the game ---------------------------------------------------------------------
    def elimination_candidate(self, game) -> int | None:
        if not game.state:
            return None
        final = load(game).final
        return final.loser if final is not None else None

    # -- the one door -----------------------------------------------------------------------------------
    def observation(self, game, viewer) -> dict:
        return observe(game, viewer)

    def public_state(self, state: dict) -> dict:
        return public_state(state)

    def hidden_perturb(self, game, seat_number: int | None, rng) -> list[str]:
        return hidden_perturb(self, game, seat_number, rng)
