"""Illegal actions, what each audience sees, timeouts, and the move log."""

import json

import pytest

from games.middle_marathon.rules import (
    Settings,
    apply,
    full_view,
    legal_actions,
    new_game,
    pending,
    public_view,
    seat_view,
    state_from_json,
    state_to_json,
    timeout,
)
from games.platform.kit import Announce, Reveal, RulesError

from .positions import BLUE, RED, choose, make, play, texts


def error(state, seat, action) -> RulesError:
    with pytest.raises(RulesError) as caught:
        apply(state, seat, action)
    return caught.value


def test_new_game_puts_every_piece_on_space_1_with_full_decks():
    state = new_game(Settings(), 0)
    assert set(state.positions.values()) == {1} and len(state.positions) == 9
    assert state.hands == [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]
    assert len(legal_actions(state, BLUE)) == 5 * 5 and legal_actions(state, RED) == []


def test_it_is_not_your_move():
    assert "not your move" in error(new_game(), RED, {"type": "play", "card": 1, "piece": "FR"}).message


def test_a_card_you_do_not_hold():
    state = make({}, hands=([1, 2], [0, 1, 2, 3, 4]))
    assert error(state, BLUE, {"type": "play", "card": 4, "piece": "FB"}).field == "card"


def test_a_card_on_the_other_players_piece():
    err = error(new_game(), BLUE, {"type": "play", "card": 2, "piece": "FR"})
    assert err.field == "piece" and "your own pieces or on the neutral" in err.message


def test_a_card_on_a_piece_off_the_board():
    state = make({}, gone=("FB",))
    err = error(state, BLUE, {"type": "play", "card": 2, "piece": "FB"})
    assert err.field == "piece" and "off the board" in err.message


def test_an_unknown_piece():
    assert error(new_game(), BLUE, {"type": "play", "card": 2, "piece": "XX"}).field == "piece"


def test_a_choice_that_is_not_allowed_and_playing_while_a_choice_is_owed():
    state = make({"SB": 3, "GB": 9})
    state, _ = play(state, 0, "SB")
    assert error(state, BLUE, {"type": "choose", "choice": "FR"}).field == "choice"
    assert error(state, BLUE, {"type": "play", "card": 1, "piece": "FB"}).field == "type"
    assert error(state, RED, {"type": "choose", "choice": "GB"}).field is None


def test_a_discard_of_cards_not_in_hand_or_more_than_two():
    state = make({"M": 6}, hands=([0, 1, 2, 3], [0, 1, 2, 3, 4]))
    state, _ = play(state, 0, "M")
    assert error(state, BLUE, {"type": "choose", "choice": [4]}).field == "choice"
    assert error(state, BLUE, {"type": "choose", "choice": [1, 2, 3]}).field == "choice"
    assert error(state, BLUE, {"type": "choose", "choice": "1"}).field == "choice"


def test_apply_leaves_the_old_state_untouched():
    state = new_game()
    before = state_to_json(state)
    play(state, 3, "FB")
    assert state_to_json(state) == before


def test_timeout_the_player_whose_reserve_runs_out_loses_at_once():
    state = make({"SB": 3, "GB": 9})
    state, _ = play(state, 0, "SB")  # Blue owes a choice
    state, events = timeout(state, BLUE)
    assert state.result["winner"] == RED and state.result["ended_because"] == "timeout"
    assert pending(state)["kind"] == "over" and legal_actions(state, BLUE) == []
    assert "Blue ran out of reserve time and loses. Red wins." in texts(events)
    with pytest.raises(RulesError):
        apply(state, BLUE, {"type": "choose", "choice": "GB"})
    with pytest.raises(RulesError):
        timeout(state, RED)


def test_the_move_log_describes_a_force_move_in_words():
    state = make({"FB": 4, "GR": 5, "SB": 12}, rest=None)
    state, events = play(state, 3, "FB")
    assert texts(events) == [
        "Blue plays 3 on Force (blue): Force (blue) is to move 4 -> 7 with another piece Blue chooses"
    ]
    state, events = choose(state, "GR")
    expected = (
        "Blue chooses Gravity (red) for Force (blue): Force (blue) moves 4 -> 7; Gravity (red) moves 5 -> 8"
    )
    assert texts(events)[0] == expected
    assert all(isinstance(event, Announce) for event in events)
    assert events[0].data["forced"] is False and state.log[-len(events) :] == texts(events)


def test_seat_view_shows_only_its_own_hand_and_public_view_no_hand():
    state = make({"M": 6}, hands=([0, 2, 3], [1, 4]))
    public = public_view(state)
    assert "hand" not in public and "hands" not in public and public["hand_sizes"] == [3, 2]
    assert "cards" not in public["pending"]
    blue = seat_view(state, BLUE)
    assert blue["hand"] == [0, 2, 3] and blue["pending"]["cards"] == [0, 2, 3]
    red = seat_view(state, RED)
    assert red["hand"] == [1, 4] and "cards" not in red["pending"]
    assert full_view(state)["hands"] == [[0, 2, 3], [1, 4]]
    json.dumps([public, blue, red, full_view(state)])


def test_discard_options_are_shown_only_to_the_player_discarding():
    state = make({"M": 6}, hands=([0, 2, 3], [1, 4]))
    state, _ = play(state, 0, "M")
    assert "options" not in public_view(state)["pending"]
    assert "options" not in seat_view(state, RED)["pending"]
    assert seat_view(state, BLUE)["pending"]["options"] == [[], [2], [3], [2, 3]]


def test_cards_played_are_public():
    state, _ = play(new_game(), 3, "SB")
    assert public_view(state)["played"] == [{"turn": 1, "seat": BLUE, "card": 3, "piece": "SB"}]


def test_setting_secret_discards_tells_only_the_discarder_which_cards():
    state = make({"M": 6}, hands=([0, 2, 3], [1, 4]), settings=Settings(discards_public=False))
    state, _ = play(state, 0, "M")
    state, events = choose(state, [3])
    assert "Blue discards 1 card(s)" in texts(events)
    private = [event for event in events if isinstance(event, Reveal)]
    assert private[0].seat == BLUE and private[0].text == "You discard the 3"
    assert public_view(state)["discards"] == [{"turn": 1, "seat": BLUE, "count": 1}]
    assert "choice" not in public_view(state)["decisions"][-1]
    assert seat_view(state, BLUE)["my_discards"] == [{"turn": 1, "seat": BLUE, "cards": [3]}]


def test_statuses_show_on_the_public_track():
    state = make({"FB": 4, "SR": 6})
    state, _ = play(state, 0, "FB")
    state, _ = choose(state, "SR")
    row = next(row for row in public_view(state)["pieces"] if row["piece"] == "SR")
    assert row == {
        "piece": "SR",
        "name": "Swap (red)",
        "kind": "S",
        "colour": "red",
        "seat": RED,
        "space": 6,
        "finished": False,
        "place": None,
        "locked_until": 3,
        "reversed_until": None,
    }


def test_state_json_round_trip_mid_decision():
    state = make({"GB": 6, "RR": 10, "SR": 7}, rest=None, settings=Settings(reserve_seconds=1200))
    state, _ = play(state, 2, "GB")
    state, _ = choose(state, "RR")
    assert state.stack
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(data) == state
