"""Abilities setting off abilities: Force into Gravity into Reflect and on, worked out by hand."""

from games.middle_marathon.rules import Settings, pending

from .positions import BLUE, RED, choose, make, play


def test_force_moves_gravity_whose_pull_moves_reflect_whose_reflection_moves_gravity_again():
    state = make({"FB": 2, "GR": 6, "RB": 11, "SR": 4}, rest=None)
    state, _ = play(state, 3, "FB")  # Force 2 -> 5, companion to choose
    state, _ = choose(state, "GR")  # GR 6 -> 9 with it
    assert state.positions == {"FB": 5, "GR": 9, "RB": 11, "SR": 4}
    # GR moved: Red pulls. Ahead of 9: RB; behind: FB, SR.
    assert pending(state)["seat"] == RED and pending(state)["options"] == ["FB", "RB", "SR"]
    state, _ = choose(state, "RB")  # RB 11 -> 10, backwards 1, not by a card: Blue reflects
    assert pending(state)["seat"] == BLUE and pending(state)["options"] == ["FB", "GR", "SR"]
    state, _ = choose(state, "GR")  # GR 9 -> 10: GR has moved again and pulls again, first
    assert pending(state)["seat"] == RED and pending(state)["options"] == ["FB", "SR"]
    state, _ = choose(state, "SR")  # SR 4 -> 5; the new pull's ahead part has nothing (RB is level)
    # The first pull's part left, behind, judged from 10.
    assert pending(state)["options"] == ["FB", "SR"]
    state, _ = choose(state, "FB")  # FB 5 -> 6
    assert state.positions == {"FB": 6, "GR": 10, "RB": 10, "SR": 5}
    assert pending(state) == {
        "kind": "turn",
        "seat": RED,
        "turn": 2,
        "cards": [0, 1, 2, 3, 4],
        "pieces": ["GR", "SR"],
    }
    kinds = [(d["kind"], d["seat"], d["choice"], d["forced"]) for d in state.decisions]
    assert kinds == [
        ("force_companion", BLUE, "GR", False),
        ("gravity", RED, "RB", False),
        ("reflect", BLUE, "GR", False),
        ("gravity", RED, "SR", False),
        ("gravity", RED, "FB", False),
    ]


def test_gravity_pulling_the_other_gravity_sets_off_its_pull():
    state = make({"GB": 3, "GR": 9, "SR": 12, "SB": 2}, rest=None)
    state, _ = play(state, 4, "GB")  # 3 -> 7: ahead GR, SR; behind SB
    state, _ = choose(state, "GR")  # GR 9 -> 8 moved: Red pulls from 8 first
    assert pending(state)["seat"] == RED and pending(state)["options"] == ["GB", "SB", "SR"]
    state, _ = choose(state, "SR")  # SR 12 -> 11
    state, _ = choose(state, "SB")  # behind 8: GB 7, SB 2 -> Red takes SB 2 -> 3
    # GB's part left, behind 7: SB only (forced).
    assert state.positions == {"GB": 7, "GR": 8, "SR": 11, "SB": 4}
    assert state.decisions[-1] == {
        "turn": 1,
        "seat": BLUE,
        "kind": "gravity",
        "piece": "GB",
        "choice": "SB",
        "forced": True,
    }


def test_reflect_reflecting_onto_the_other_reflect_reflects_again():
    state = make({"FB": 2, "RB": 4, "RR": 9, "SR": 12}, rest=None)
    state, _ = play(state, 3, "FB")  # FB 2 -> 5
    state, _ = choose(state, "RB")  # RB 4 -> 7 forwards: Blue picks a piece ahead of 7
    assert pending(state)["options"] == ["RR", "SR"]
    state, _ = choose(state, "RR")  # RR 9 -> 6 backwards 3: Red must pick behind 6, only FB: 5 -> 8
    assert state.positions == {"FB": 8, "RB": 7, "RR": 6, "SR": 12}
    assert state.decisions[-1]["forced"] is True and state.decisions[-1]["seat"] == RED


def test_the_race_ends_mid_chain_when_one_colour_is_left():
    # Red pushes Blue's last piece over the line; the Gravity's other part is never asked.
    state = make({"GR": 10, "FB": 15, "SR": 4}, rest=None, to_move=RED)
    state, events = play(state, 0, "GR")
    state, events = choose(state, "FB")
    assert pending(state)["kind"] == "over" and state.stack == []
    assert state.positions == {"GR": 10, "SR": 4}
    assert state.result["order"][-3:] == ["FB", "GR", "SR"]


def test_neutral_counts_as_a_colour_so_the_race_goes_on_with_red_and_purple():
    state = make({"FB": 15, "SR": 4, "M": 7}, rest=None)
    state, _ = play(state, 2, "FB")
    state, _ = choose(state, "SR")
    assert state.result is None and pending(state)["seat"] == RED
    state, _ = play(state, 2, "SR")
    # Blue has no piece left but still plays, on the neutral piece.
    assert pending(state)["pieces"] == ["M"]


def test_setting_neutral_is_not_a_colour_ends_the_race_when_one_player_is_left():
    state = make({"FB": 15, "SR": 4, "M": 7}, rest=None, settings=Settings(neutral_is_a_colour=False))
    state, _ = play(state, 2, "FB")
    state, _ = choose(state, "SR")
    assert state.result is not None
    assert state.result["order"][-3:] == ["FB", "M", "SR"]


def test_a_gravity_pulls_two_different_pieces_even_when_a_chain_carries_the_first_to_the_other_side():
    # Issue 20: Red Gravity, Blue Gravity and Blue Reflect on 10, everything else finished; Red plays 3 on GR.
    state = make({"GR": 10, "GB": 10, "RB": 10}, rest=None, to_move=RED)
    state, _ = play(state, 3, "GR")  # GR 10 -> 13: behind it GB and RB
    state, _ = choose(state, "GB")  # GB 10 -> 11 moved: Blue pulls, ahead GR 13, behind RB 10
    assert pending(state)["seat"] == BLUE and pending(state)["options"] == ["RB", "GR"]
    state, _ = choose(state, "RB")  # RB 10 -> 11 reflects onto GR (forced) 13 -> 12; GR pulls again
    assert state.positions == {"GR": 12, "GB": 11, "RB": 11}
    assert pending(state)["seat"] == RED and pending(state)["options"] == ["GB", "RB"]
    state, _ = choose(state, "RB")  # RB 11 -> 12: Blue's first pull has carried RB ahead of GB
    # GB's second part, ahead of 11: RB and GR stand there, but RB was GB's first piece ("two different
    # pieces"), so GR is the only one (forced): GR 12 -> 11, and GR's new pull takes RB 12 -> 11 (forced).
    assert state.positions == {"GR": 11, "GB": 11, "RB": 11}
    pulls = [(d["piece"], d["choice"]) for d in state.decisions if d["kind"] == "gravity"]
    assert pulls == [("GR", "GB"), ("GB", "RB"), ("GR", "RB"), ("GB", "GR"), ("GR", "RB")]
    assert pending(state)["kind"] == "turn" and pending(state)["seat"] == BLUE
