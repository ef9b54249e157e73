"""The addendum's names for pieces: "specify both the name of the piece (first letter is fine) and the color
of it (first letter is fine)", and a clear error for a name that does not say both."""

import pytest

from games.middle_marathon.rules import PIECES, apply, new_game, parse_piece, pending
from games.middle_marathon.rules.pieces import KINDS, colour, kind
from games.platform.kit import RulesError

from .positions import BLUE, RED, make


def refusal(text, field="piece") -> RulesError:
    with pytest.raises(RulesError) as caught:
        parse_piece(text, field=field)
    return caught.value


def test_addendum_force_b_is_force_blue():
    state, _ = apply(new_game(), BLUE, {"type": "play", "card": 1, "piece": "Force B"})
    assert state.played[-1]["piece"] == "FB" and pending(state)["options"][0] == "GB"


def test_addendum_gravity_r_is_gravity_red():
    state, _ = apply(new_game(first_player=RED), RED, {"type": "play", "card": 2, "piece": "Gravity R"})
    assert state.played[-1]["piece"] == "GR" and state.positions["GR"] == 3


def test_addendum_bf_colour_first_is_force_blue():
    state, _ = apply(new_game(), BLUE, {"type": "play", "card": 2, "piece": "BF"})
    assert state.played[-1]["piece"] == "FB"
    # A choice is read the same way: the Force's companion named colour first, "RS" for Swap (red).
    state, _ = apply(state, BLUE, {"type": "choose", "choice": "RS"})
    assert state.positions["FB"] == state.positions["SR"] == 3


def test_addendum_swap_r_in_brackets_is_swap_red():
    state, _ = apply(new_game(first_player=RED), RED, {"type": "play", "card": 3, "piece": "Swap(r)"})
    assert state.played[-1]["piece"] == "SR" and state.positions["SR"] == 4


def written_forms(piece: str) -> list[str]:
    """Name and colour each whole or by first letter, either first, with the spacings players use."""
    names = [kind(piece), KINDS[kind(piece)]]
    colours = [colour(piece)[0], colour(piece)]
    forms = []
    for name in names:
        for col in colours:
            forms += [f"{name} {col}", f"{name}{col}", f"{name} ({col})", f"{name}({col})", f"{col} {name}"]
            forms += [f"{col}{name}"]
    return forms + [form.lower() for form in forms] + [form.upper() for form in forms]


@pytest.mark.parametrize("piece", PIECES)
def test_addendum_every_piece_by_name_and_colour_whole_or_first_letter_in_either_order(piece):
    # One spelling never reads as two pieces: "RR" is Reflect red whichever letter is the colour.
    assert {parse_piece(form) for form in written_forms(piece)} == {piece}


def test_the_purple_movement_piece_needs_no_colour():
    assert {
        parse_piece(text) for text in ("M", "m", "Movement", "Movement P", "PM", "movement (purple)")
    } == {"M"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Force", "Name the colour too: FB is Force (blue), FR is Force (red)."),
        ("g", "Name the colour too: GB is Gravity (blue), GR is Gravity (red)."),
        ("R", "Name the colour too: RB is Reflect (blue), RR is Reflect (red)."),
        ("Blue", "Name the kind of piece too, e.g. FB for Force (blue)."),
        ("Movement B", "Movement is the neutral piece, purple: write M."),
        ("Swap purple", "There is no purple Swap: it is blue or red."),
        ("Fo B", "There is no piece called 'Fo B'. Name its kind and its colour, first letters fine: "),
        ("Force Gravity", "There is no piece called 'Force Gravity'."),
        ("FBR", "There is no piece called 'FBR'."),
    ],
)
def test_a_name_without_both_kind_and_colour_is_refused_with_what_is_missing(text, message):
    error = refusal(text)
    assert error.message.startswith(message) and error.field == "piece"


def test_a_refused_choice_names_the_choice_field():
    state = make({"FB": 3, "GR": 6, "SR": 2}, rest=None)
    state, _ = apply(state, BLUE, {"type": "play", "card": 1, "piece": "fb"})
    with pytest.raises(RulesError) as caught:
        apply(state, BLUE, {"type": "choose", "choice": "Gravity"})
    assert caught.value.field == "choice" and caught.value.message.startswith("Name the colour too")
