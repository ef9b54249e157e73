"""How the site names the players. The rules keep a name per seat in the state from the start: the site gives
them references (`{seat:3}`), so the announcements they write read with the name each player goes by when
they are read; a page names the seats by those names too."""

from __future__ import annotations

from games.platform.kit import RulesError, seat_ref
from games.platform.models import Game
from games.platform.observation import seats_with_players
from games.platform.people import shown_name
from games.platform.wording import plain, seats_as_users


def rules_names(game: Game) -> list[str]:
    """What the rules call each seat: a reference the site names when someone reads it."""
    return [seat_ref(seat.number) for seat in seats_with_players(game)]


def seat_names(game: Game) -> dict[int, str]:
    return {seat.number: shown_name(seat.user) for seat in seats_with_players(game)}


def named_error(game: Game, error: RulesError) -> RulesError:
    """A refusal of the rules that names a player, as the player reading it now (it is shown at once)."""
    if "{seat:" not in error.message:
        return error
    seats = seats_with_players(game)
    text = seats_as_users(error.message, {seat.number: seat.user_id for seat in seats})
    return RulesError(plain(text, {seat.user_id: shown_name(seat.user) for seat in seats}), field=error.field)
