"""The game state: each seat's hand, chips, bets and points, the hidden movement table, the ending."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.platform.kit import RulesError

from .settings import HORSES, ROUNDS, Settings
from .track import Table, validate_movement_table

SEATS = 9


@dataclass
class Player:
    """One seat. Lists indexed by round hold one entry for each of Rounds 0-10."""

    hand: dict[str, int]
    chips: int
    bet_bonus: int = 0  # the permanent raise of the per-round limit from Round 2's and Round 8's Utility
    current_space: int | None = None  # the space spectated in the previous round
    spectated: list[int | None] = field(default_factory=lambda: [None] * (ROUNDS + 1))
    bets: list[dict[str, int]] = field(default_factory=lambda: [{} for _ in range(ROUNDS + 1)])
    spectate_points: int = 0
    utility_points: int = 0
    purchases: int = 0


@dataclass
class Report:
    """A pending Round 3 Utility: the seat learns the chips bet on these horses at the end of each round."""

    seat: int
    horses: list[str]
    rounds: list[int]


@dataclass
class Ending:
    """The match's end: scores, awards, and the two decisions that may still be pending."""

    bet_points: list[int]
    scores: list[int]
    garnets: list[int]
    tols_won: list[int]  # won outright (these players vote on a tied Elimination Candidate)
    tols_given: list[int]  # given by a sole winner's choice (does not count as winning)
    chooser: int | None = None  # a sole winner who must choose among tied seconds
    choice_candidates: list[int] = field(default_factory=list)
    choice: int | None = None
    choice_settled: bool = True
    ec_candidates: list[int] = field(default_factory=list)  # everyone tied for fewest points
    ec_voters: list[int] = field(default_factory=list)
    votes: list[int | None] = field(default_factory=list)  # indexed by seat: the candidate voted for
    elimination_candidate: int | None = None


@dataclass
class State:
    settings: Settings
    movement: Table
    round: int  # the round open for submissions, 0-10; 11 once Round 10 is resolved (the match is over)
    players: list[Player]
    reports: list[Report] = field(default_factory=list)
    ending: Ending | None = None

    @property
    def over(self) -> bool:
        return self.round > ROUNDS


def initial_state(movement: object, seats: int = SEATS, settings: Settings | None = None) -> State:
    """Round 0 open: every seat with one card of each horse and the starting chips; horses on space 1."""
    settings = settings or Settings()
    problems = settings.problems()
    if problems:
        raise RulesError(" ".join(problems), field="settings")
    if type(seats) is not int or seats < 1:
        raise RulesError("A game needs at least one seat.", field="seats")
    table = validate_movement_table(movement)
    players = [Player(hand={h: 1 for h in HORSES}, chips=settings.starting_chips) for _ in range(seats)]
    return State(settings=settings, movement=table, round=0, players=players)


def bet_limit(state: State, seat: int, extra: int = 0) -> int:
    """The most chips the seat may bet this round: the base, the permanent raises, and `extra` for raises
    that the seat's own ability adds in this very round."""
    return state.settings.base_bet_limit + state.players[seat].bet_bonus + extra


def check_seat(state: State, seat: object, name: str = "seat") -> int:
    if type(seat) is not int or not 0 <= seat < len(state.players):
        raise RulesError(f"There is no seat {seat!r} in this game.", field=name)
    return seat


def check_horse(value: object, name: str) -> str:
    """A horse letter, upper-cased; anything else is the player's error on field `name`."""
    letter = value.strip().upper() if isinstance(value, str) else ""
    if len(letter) != 1 or letter not in HORSES:
        raise RulesError(f"{value!r} is not a horse card (A-I).", field=name)
    return letter
