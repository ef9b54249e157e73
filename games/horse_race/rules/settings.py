"""The game's fixed facts (horses, track, rounds) and the host-adjustable Settings."""

from __future__ import annotations

from dataclasses import dataclass, fields

from games.platform.kit import RulesError

HORSES = "ABCDEFGHI"
ROUNDS = 10  # Rounds 1-10 move the horses; Round 0 is the opening phase with no movement
KINDS = ("clue", "utility")


@dataclass(frozen=True)
class Settings:
    """Numbers the rules fix, plus one switch per sentence that a fair host could read two ways."""

    starting_chips: int = 30
    base_bet_limit: int = 5
    track_length: int = 15
    # chips bet on a horse score this many points each, by the horse's placement 1st..9th
    bet_points: tuple[int, ...] = (2, 4, 6, 8, 10, 7, 5, 3, 1)
    round10_utility_cap: int = 20
    points_per_garnet: int = 30
    first_purchase_cost: int = 2
    max_tied_winners_with_tols: int = 4
    # Round 0 "you only need to submit for the ability": by default it has no spectating (and so no bets in
    # Round 1); switch on to let Round 0 spectate a space that becomes the current space of Round 1.
    round0_spectating: bool = False
    # Round 10 has no "next round": by default what Round 10's spectated space shows is revealed and scored
    # when the game ends; switch off to make Round 10's spectating worthless.
    final_spectate_scored: bool = True
    # Round 9's Utility chips "can be used to bet in the current round": by default they also raise that
    # round's limit; switch off to keep the usual limit (the chips then only help a player short of chips).
    round9_chips_raise_limit: bool = True
    # Round 5's Clue "placements": by default horses that already finished keep their race placement and
    # horses on the track rank below them by space; switch off to rank every horse by space alone.
    standings_keep_finish_order: bool = True
    # "Betting more than the limit invalidates the entire submission": by default the total counts every
    # well-formed bet, even one later voided (e.g. a horse not in the current space); switch off to count
    # only the bets that stand.
    limit_counts_voided_bets: bool = True
    # A sole winner who does not choose among tied seconds before the deadline: the choice is drawn at
    # random from the game's seed by default; switch off to give nobody the third ToL.
    unmade_choice_drawn: bool = True
    # "If there is a sole winner and a tie for second place, only two ToLs are given out; the sole winner
    # chooses which of the tied players wins the other ToL": read literally, the winner wins one and the
    # chosen player the other (two in all); switch off to let the winner keep two (three in all).
    only_two_tols_with_tied_seconds: bool = True
    # The tied second the winner chooses "wins the other ToL", but "being given a ToL does not count as
    # winning it": by default that player does not vote on a tied Elimination Candidate; switch on to
    # count them among those who won a ToL.
    chosen_second_votes: bool = False

    def to_json(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["bet_points"] = list(self.bet_points)
        return data

    @classmethod
    def from_json(cls, data: dict | None) -> Settings:
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"Unknown setting(s): {', '.join(unknown)}.", field="settings")
        if "bet_points" in data:
            data["bet_points"] = tuple(data["bet_points"])
        settings = cls(**data)
        problems = settings.problems()
        if problems:
            raise RulesError(" ".join(problems), field="settings")
        return settings

    def problems(self) -> list[str]:
        found = []
        for name in ("starting_chips", "base_bet_limit", "round10_utility_cap", "first_purchase_cost"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                found.append(f"{name} must be a whole number of at least 0.")
        if type(self.track_length) is not int or self.track_length < 1:
            found.append("track_length must be a whole number of at least 1.")
        if type(self.points_per_garnet) is not int or self.points_per_garnet < 1:
            found.append("points_per_garnet must be a whole number of at least 1.")
        if type(self.max_tied_winners_with_tols) is not int or self.max_tied_winners_with_tols < 1:
            found.append("max_tied_winners_with_tols must be a whole number of at least 1.")
        if len(self.bet_points) != len(HORSES) or any(type(p) is not int for p in self.bet_points):
            found.append(f"bet_points must list {len(HORSES)} whole numbers, 1st place first.")
        return found
