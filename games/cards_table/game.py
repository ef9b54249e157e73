"""Cards on the Table as a platform game type: the round windows, their forms, resolution and operations."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

from games.platform.errors import NotReady
from games.platform.kit import Announce, Ledger, RulesError
from games.platform.registry import GameType, Outcome, window_settings_problems

from . import flips
from .boards_text import codes_of, indicator_of
from .forms import LoserChoiceForm, RoundForm, payload_to_initial
from .models import BoardSet
from .observation import observe
from .perturb import hidden_perturb
from .rules import (
    HEAT_RULES,
    Phase,
    apply_action,
    generate_boards,
    judge_heat_guess,
    new_game,
    resolve_round,
    set_heat_override,
    submit_heat_guess,
    submit_loser_choice,
    validate_action,
)
from .rules.codec import to_json
from .store import ROUND_OF_LOSER_CHOICE, dump, load, rules_settings, seat_names, with_names
from .verdicts import round_verdicts, verdict_for

HOURS = ("round_hours", "decision_hours")


def boards_from_seed(game) -> list[list[str]]:
    """The three boards the game's seed draws (the hosts' one-click set, and the demo's)."""
    diagonal = bool((game.settings.get("rules") or {}).get("diagonal_adjacency", False))
    return codes_of(generate_boards(random.Random(game.seed), diagonal))


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
    flow = "rounds"
    min_players = 2  # the match is for 10; smaller tables are for rehearsals
    max_players = 10
    page_template = "cards_table/board.html"

    # -- set-up -----------------------------------------------------------------------------------------
    def default_settings(self) -> dict:
        return {"round_hours": 24, "decision_hours": 24}

    def settings_problems(self, settings: dict) -> list[str]:
        problems = window_settings_problems(settings, HOURS)
        try:
            rules_settings(settings, players=10)
        except (RulesError, TypeError) as error:
            problems.append(getattr(error, "message", str(error)))
        return problems

    def hidden_problems(self, game) -> list[str]:
        board_set = BoardSet.objects.filter(game=game).first()
        if board_set is None:
            return ["the three boards are missing: enter them in the admin or generate them from the seed"]
        return ["boards: " + v["message"] for v in board_set.violations()]

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
        if not (isinstance(codes, list) and len(codes) == 3 and all(isinstance(b, list) for b in codes)):
            raise RulesError(
                'Send {"boards": [three lists of 25 codes like "2R"], "heat_rule": ...}.', field="boards"
            )
        if rule and rule not in HEAT_RULES:
            raise RulesError(f"The heat rule is one of {', '.join(sorted(HEAT_RULES))}.", field="heat_rule")
        BoardSet.objects.update_or_create(
            game=game,
            defaults={"codes": codes, "heat_rule": rule, "heat_overrides": data.get("heat_overrides") or []},
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
            return self._clean_loser_choice(state, seat.number, payload)
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

    def _clean_loser_choice(self, state, seat: int, payload: dict) -> dict:
        if state.phase is not Phase.CHOOSING_LOSER or state.final is None:
            raise RulesError("There is no elimination candidate to choose.", field="loser")
        if seat not in state.final.winners:
            raise RulesError("Only the winner(s) choose the elimination candidate.", field="loser")
        try:
            chosen = int(payload.get("loser"))
        except (TypeError, ValueError):
            raise RulesError("Pick one of the tied players.", field="loser") from None
        if chosen not in state.final.loser_candidates:
            raise RulesError("Pick one of the tied players.", field="loser")
        return {"loser": chosen}

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
            return self._resolve_loser_choice(game, state, submissions)
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
                + " waits for a host's verdict. Judge it on the game page; the round then resolves."
            )
        state, events = resolve_round(state)
        events = points_for_the_ledger(events)
        return Outcome(
            state=dump(state), events=with_names(game, events), finished=state.phase is Phase.ENDED
        )

    def _resolve_loser_choice(self, game, state, submissions) -> Outcome:
        winners = state.final.winners
        votes = Counter(p["loser"] for seat, p in submissions.items() if seat in winners and "loser" in p)
        events = []
        if votes:
            # The choice most winners named; a tie between choices goes to the lowest seat among them.
            best = max(votes.values())
            chosen = min(c for c, n in votes.items() if n == best)
        else:
            chosen = random.Random(f"{game.seed}-loser").choice(sorted(state.final.loser_candidates))
            events.append(
                Announce("No winner chose in time: the game's seed drew the elimination candidate.")
            )
        chooser = min(
            (seat for seat, p in submissions.items() if seat in winners and p.get("loser") == chosen),
            default=winners[0],
        )
        state, chosen_events = submit_loser_choice(state, chooser, chosen)
        return Outcome(state=dump(state), events=with_names(game, events + chosen_events), finished=True)

    # -- during the window ------------------------------------------------------------------------------
    def operations(self) -> dict:
        return dict(flips.OPERATIONS)

    # -- the season around the game ---------------------------------------------------------------------
    def elimination_candidate(self, game) -> int | None:
        if not game.state:
            return None
        final = load(game).final
        return final.loser if final is not None else None

    # -- the one door -----------------------------------------------------------------------------------
    def observation(self, game, viewer) -> dict:
        return observe(game, viewer)

    def hidden_perturb(self, game, seat_number: int | None, rng) -> list[str]:
        return hidden_perturb(self, game, seat_number, rng)
