"""The rules' Settings: the choices a host makes, each default a ruling."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """Choices the host makes; the defaults are the rulings in docs/rulings/middle_marathon.md."""

    # "When there are only pieces of one color": does the purple Movement piece count as a colour?
    neutral_is_a_colour: bool = True
    # Force's and Reflect's 0 say "select a piece" (not "another piece"): may they pick themselves?
    zero_may_target_itself: bool = True
    # Are the cards thrown away by Movement's 0 announced (True) or only the number of them (False)?
    discards_public: bool = True
    placement_points: tuple[int, ...] = (0, 2, 3, 4, 6, 4, 3, 2, 0)
    # The clocks are run by the site, not the rules; they live here so a host sets them with the game.
    turn_seconds: int = 60
    interaction_seconds: int = 30
    off_turn_decision_seconds: int = 60
    reserve_seconds: int = 600
    reserve_increment_seconds: int = 30
