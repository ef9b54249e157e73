"""What players do in a round: flip cards, declare actions, submit guesses, buy a peek at the last board."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from games.platform.kit import Reveal, RulesError

from .cards import ACTION_ORDER, CELLS, Action, Card, Colour, HeatIndicator, cell_name, check_cell, index
from .heat import compute_heat
from .state import Cell, GuessCell, HeatGuess, HeatOverride, Phase, SeatRound, State

MAX_HEAT_GUESS = 2000


# --- reading the table ------------------------------------------------------------------------------------


def card_at(state: State, rnd: int, row: int, col: int) -> Card:
    return state.boards[rnd - 1][index(row, col)]


def heat_at(state: State, rnd: int, row: int, col: int) -> HeatIndicator:
    """The indicator printed on a card: the host's hand-set one if any, else the game's heat rule."""
    for override in state.heat_overrides:
        if (override.round, override.row, override.col) == (rnd, row, col):
            return override.indicator
    numbers = [card.number for card in state.boards[rnd - 1]]
    return compute_heat(state.heat_rule, numbers, row, col)


def card_words(state: State, rnd: int, row: int, col: int) -> str:
    card = card_at(state, rnd, row, col)
    heat = heat_at(state, rnd, row, col)
    return f"{cell_name(row, col)} is a {card.words()} card; heat indicator: {heat.words()}"


def card_data(state: State, rnd: int, row: int, col: int) -> dict:
    card = card_at(state, rnd, row, col)
    return {
        "round": rnd,
        "row": row,
        "col": col,
        "number": card.number,
        "colour": card.colour.value,
        "heat": heat_at(state, rnd, row, col).to_dict(),
    }


def actions_used(state: State, seat: int, before_round: int | None = None) -> tuple[Action, ...]:
    """The actions a seat carried out in the rounds before before_round (all rounds when None)."""
    last = (before_round or len(state.seats[seat]) + 1) - 1
    return tuple(sr.action for sr in state.seats[seat][:last] if sr.action is not None)


def first_unused(state: State, seat: int) -> Action:
    used = actions_used(state, seat, state.round)
    for action in ACTION_ORDER:
        if action not in used:
            return action
    return ACTION_ORDER[0]


def flip_penalty(settings, flip_number: int) -> int:
    """Points lost for the flip_number-th flip of a round: -2 for the third, then -1 more for each further."""
    if flip_number < 3:
        return 0
    if settings.escalating_extra_flips:
        return -(flip_number - 1)
    return -2 if flip_number == 3 else -1


def scoring_cell(sr: SeatRound) -> Cell | None:
    """The first card, or the second if the action was Replace; None for a round without a flip."""
    if not sr.flips:
        return None
    if sr.action is Action.REPLACE:
        return sr.flips[1]
    return sr.flips[0]


# --- checks shared by every player action -----------------------------------------------------------------


def _check_playing(state: State, seat: object) -> int:
    if state.phase is not Phase.PLAYING:
        raise RulesError("The game is over.", field="round")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.settings.players:
        raise RulesError("There is no such seat in this game.", field="seat")
    return seat


def _with_seat_round(state: State, seat: int, sr: SeatRound) -> State:
    rounds = list(state.seats[seat])
    rounds[state.round - 1] = sr
    seats = list(state.seats)
    seats[seat] = tuple(rounds)
    return replace(state, seats=tuple(seats))


def _parse_action(state: State, seat: int, action: object) -> Action:
    try:
        chosen = Action(str(action).lower())
    except ValueError:
        raise RulesError("Choose Nullify, Replace or Scout.", field="action") from None
    if not state.settings.allow_repeated_actions and chosen in actions_used(state, seat, state.round):
        raise RulesError(
            f"You already used {chosen.value.title()} in an earlier round; each action must be used once.",
            field="action",
        )
    return chosen


# --- the player's actions ---------------------------------------------------------------------------------


def declare_action(state: State, seat: int, action: object) -> tuple[State, list]:
    """Declare Nullify, Replace or Scout before the second flip (a later declaration replaces one before)."""
    seat = _check_playing(state, seat)
    sr = state.seat_round(seat)
    if len(sr.flips) >= 2:
        raise RulesError("You already turned over your second card this round.", field="action")
    chosen = _parse_action(state, seat, action)
    text = f"Round {state.round}: you declared {chosen.value.title()} for your second card."
    return _with_seat_round(state, seat, replace(sr, declared=chosen)), [
        Reveal(seat, text, {"round": state.round, "declared": chosen.value})
    ]


def flip(state: State, seat: int, row: int, col: int, declared_action: object = None) -> tuple[State, list]:
    """Turn a card over: final, and shown to the player at once. The second flip carries out the action."""
    seat = _check_playing(state, seat)
    row, col = check_cell(row, col)
    sr = state.seat_round(seat)
    if (row, col) in sr.flips:
        raise RulesError(f"You already turned over {cell_name(row, col)} this round.", field="cell")
    events: list = []
    if declared_action is not None:
        if len(sr.flips) >= 2:
            raise RulesError("You already turned over your second card this round.", field="action")
        sr = replace(sr, declared=_parse_action(state, seat, declared_action))
    number = len(sr.flips) + 1
    sr = replace(sr, flips=sr.flips + ((row, col),))
    data = card_data(state, state.round, row, col) | {"flip": number}
    words = card_words(state, state.round, row, col)
    if number == 1:
        text = f"Round {state.round}, your starting card: {words}."
    elif number == 2:
        action = sr.declared or first_unused(state, seat)
        sr = replace(sr, action=action, undeclared=sr.declared is None)
        data["action"] = action.value
        doing = {
            Action.NULLIFY: "you nullified it: it is worth 0 points to whoever scores with it",
            Action.REPLACE: "you replaced your starting card: you score with this card",
            Action.SCOUT: "you scouted it; you score with your starting card",
        }[action]
        text = f"Round {state.round}, {action.value.title()}: {words}; {doing}."
        if sr.undeclared:
            text += f" You declared no action first, so {action.value.title()} was used and you lose 1 point."
    else:
        penalty = flip_penalty(state.settings, number)
        data["penalty"] = penalty
        cost = f"{-penalty} point{'' if penalty == -1 else 's'}"
        text = f"Round {state.round}, extra card {number}: {words}. This flip costs you {cost}."
    events.append(Reveal(seat, text, data))
    return _with_seat_round(state, seat, sr), events


def _parse_guess_cell(item: object) -> GuessCell:
    if item is None:
        return GuessCell()
    if isinstance(item, GuessCell):
        number, colour = item.number, item.colour
    elif isinstance(item, dict):
        number, colour = item.get("number"), item.get("colour")
    elif isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2:
        number, colour = item
    else:
        raise RulesError("Each guessed card is a number and a colour.", field="board_guess")
    if number in ("", None):
        number = None
    elif str(number) in ("1", "2", "3"):
        number = int(number)
    else:
        raise RulesError("A guessed number must be 1, 2 or 3.", field="board_guess")
    if colour in ("", None):
        colour = None
    else:
        try:
            colour = Colour(str(colour).lower())
        except ValueError:
            raise RulesError("A guessed colour must be red, blue or yellow.", field="board_guess") from None
    return GuessCell(number, colour)


def submit_board_guess(state: State, seat: int, grid: object) -> tuple[State, list]:
    """Guess the board: 5 rows of 5 (number, colour) cells, blanks allowed; resubmitting replaces it."""
    seat = _check_playing(state, seat)
    if (
        isinstance(grid, Sequence)
        and len(grid) == 5
        and all(isinstance(r, Sequence) and len(r) == 5 for r in grid)
    ):
        flat = [item for row in grid for item in row]
    elif isinstance(grid, Sequence) and len(grid) == CELLS:
        flat = list(grid)
    else:
        raise RulesError("A board guess is 5 rows of 5 cards.", field="board_guess")
    guess = tuple(_parse_guess_cell(item) for item in flat)
    sr = replace(state.seat_round(seat), board_guess=guess)
    text = f"Round {state.round}: your guess of the board is saved until the round closes."
    return _with_seat_round(state, seat, sr), [Reveal(seat, text, {"round": state.round})]


def submit_top_guess(state: State, seat: int, guessed: object) -> tuple[State, list]:
    """Guess who is top of the previous round's primary list (in Rounds 2 and 3); resubmitting replaces it."""
    seat = _check_playing(state, seat)
    if state.round == 1:
        raise RulesError("The first primary list is published at the end of Round 1.", field="top_guess")
    if not isinstance(guessed, int) or isinstance(guessed, bool) or not 0 <= guessed < state.settings.players:
        raise RulesError("Name another player of this game.", field="top_guess")
    if guessed == seat:
        # Being told "correct" would tell a player they top the list, which the rules keep from them.
        raise RulesError("Name another player, not yourself.", field="top_guess")
    sr = replace(state.seat_round(seat), top_guess=guessed)
    text = f"Round {state.round}: your guess of the top of Round {state.round - 1}'s primary list is saved."
    return _with_seat_round(state, seat, sr), [Reveal(seat, text, {"round": state.round, "guessed": guessed})]


def submit_heat_guess(state: State, seat: int, text: object) -> tuple[State, list]:
    """Say how the heat indicator is calculated: once per game, judged by the host, told at the close."""
    seat = _check_playing(state, seat)
    if state.heat_guesses[seat] is not None:
        raise RulesError("You have already made your one guess of the heat indicator.", field="heat_guess")
    if not isinstance(text, str) or not text.strip():
        raise RulesError("Write how you think the heat indicator is calculated.", field="heat_guess")
    if len(text) > MAX_HEAT_GUESS:
        raise RulesError(f"Keep your guess under {MAX_HEAT_GUESS} characters.", field="heat_guess")
    guesses = list(state.heat_guesses)
    guesses[seat] = HeatGuess(state.round, text.strip())
    message = (
        f"Round {state.round}: your heat indicator guess is with the host; you will be told at the close."
    )
    return replace(state, heat_guesses=tuple(guesses)), [Reveal(seat, message, {"round": state.round})]


def peek_previous(state: State, seat: int, row: int, col: int) -> tuple[State, list]:
    """Show a card of the previous round (Rounds 2 and 3). The caller checks and debits the 1 garnet."""
    seat = _check_playing(state, seat)
    row, col = check_cell(row, col)
    if state.round == 1:
        raise RulesError("A garnet buys a card of the previous round, from Round 2 on.", field="cell")
    # Never sell a player what they already see: a card they turned over themselves, or one already bought.
    if (row, col) in state.seat_round(seat, state.round - 1).flips:
        raise RulesError(
            f"You turned over {cell_name(row, col)} yourself in Round {state.round - 1}: you know it.",
            field="cell",
        )
    sr = state.seat_round(seat)
    if (row, col) in sr.peeks:
        raise RulesError(f"You already bought a look at {cell_name(row, col)}.", field="cell")
    sr = replace(sr, peeks=sr.peeks + ((row, col),))
    text = f"For 1 garnet: in Round {state.round - 1}, {card_words(state, state.round - 1, row, col)}."
    return _with_seat_round(state, seat, sr), [
        Reveal(seat, text, card_data(state, state.round - 1, row, col))
    ]


# --- the host's hand --------------------------------------------------------------------------------------


def judge_heat_guess(state: State, seat: int, correct: bool) -> tuple[State, list]:
    """The host's verdict on a seat's heat guess; the player is told (and scores) when the round closes."""
    if not 0 <= seat < state.settings.players or state.heat_guesses[seat] is None:
        raise RulesError("That player has not guessed the heat indicator.", field="heat_guess")
    guess = state.heat_guesses[seat]
    if state.phase is not Phase.PLAYING or guess.round != state.round:
        raise RulesError("That guess was settled when its round closed.", field="heat_guess")
    guesses = list(state.heat_guesses)
    guesses[seat] = replace(guess, verdict=bool(correct))
    return replace(state, heat_guesses=tuple(guesses)), []


def excuse_round(state: State, seat: int, rnd: int) -> State:
    """A host excused the seat's missed round (issue 29.5): "Players must do each of these actions once across
    the 3 rounds" then asks of it one action fewer for that round, if it carried out none there (see
    `missing_action`). Only while the rounds are played: the end of the match counts the totals once."""
    if state.phase is not Phase.PLAYING:
        raise RulesError("The points are counted already: an excuse changes them no more.", field="round")
    seat = _check_playing(state, seat)
    if not isinstance(rnd, int) or not 1 <= rnd <= len(state.seats[seat]):
        raise RulesError(f"Only Rounds 1-{len(state.seats[seat])} can be excused.", field="round")
    rounds = list(state.seats[seat])
    rounds[rnd - 1] = replace(rounds[rnd - 1], excused=True)
    seats = list(state.seats)
    seats[seat] = tuple(rounds)
    return replace(state, seats=tuple(seats))


def missing_action(state: State, seat: int) -> bool:
    """ "Failure to do so will result in your total score being set to 3": some action was never carried out,
    more of them than the seat's excused rounds without an action forgive."""
    used = actions_used(state, seat)
    missing = sum(action not in used for action in ACTION_ORDER)
    forgiven = sum(sr.excused and sr.action is None for sr in state.seats[seat])
    return missing > forgiven


def pending_heat_judgements(state: State) -> list[int]:
    """Seats whose heat guess waits for the host's verdict (the round cannot close before it)."""
    return [s for s, g in enumerate(state.heat_guesses) if g is not None and g.verdict is None]


def set_heat_override(
    state: State, rnd: int, row: int, col: int, indicator: HeatIndicator | None
) -> tuple[State, list]:
    """The host sets a card's heat indicator by hand (None goes back to the game's rule)."""
    row, col = check_cell(row, col)
    if not 1 <= rnd <= len(state.boards):
        raise RulesError("There are three rounds.", field="round")
    kept = tuple(o for o in state.heat_overrides if (o.round, o.row, o.col) != (rnd, row, col))
    if indicator is not None:
        kept += (HeatOverride(rnd, row, col, indicator),)
    return replace(state, heat_overrides=kept), []


def legal_moves(state: State, seat: int) -> dict:
    """What the seat may do now, for the page to offer."""
    if state.phase is not Phase.PLAYING:
        return {
            "flip": False,
            "declare": [],
            "board_guess": False,
            "top_guess": False,
            "heat_guess": False,
            "peek": False,
        }
    sr = state.seat_round(seat)
    used = actions_used(state, seat, state.round)
    open_actions = [a.value for a in ACTION_ORDER if state.settings.allow_repeated_actions or a not in used]
    return {
        "flip": len(sr.flips) < CELLS,
        "next_flip": len(sr.flips) + 1,
        "next_flip_penalty": flip_penalty(state.settings, len(sr.flips) + 1),
        "declare": open_actions if len(sr.flips) < 2 else [],
        "default_action": first_unused(state, seat).value,
        "board_guess": True,
        "top_guess": state.round > 1,
        "heat_guess": state.heat_guesses[seat] is None,
        "peek": state.round > 1,
    }
