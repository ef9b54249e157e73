"""The Rules of the Boards: the validator names each broken rule; the generator makes valid sets."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards_table.rules import Card, Colour, generate_boards, validate_boards
from games.cards_table.rules.boards import RULES

from .fixtures import VALID, at, frozen, parse

R, B, Y = Colour.RED, Colour.BLUE, Colour.YELLOW


def rules_broken(boards) -> set[str]:
    return {v.rule for v in validate_boards(frozen(boards))}


def swap(boards, rnd, a, b):
    board = boards[rnd - 1]
    board[at(*a)], board[at(*b)] = board[at(*b)], board[at(*a)]


def recolour(boards, rnd, cell, colour):
    board = boards[rnd - 1]
    board[at(*cell)] = Card(board[at(*cell)].number, colour)


def renumber(boards, rnd, cell, number):
    board = boards[rnd - 1]
    board[at(*cell)] = Card(number, board[at(*cell)].colour)


def test_the_fixture_set_obeys_every_rule():
    assert validate_boards(frozen(parse(VALID))) == []


def test_there_is_a_check_for_each_of_the_thirteen_bullets():
    assert len(RULES) == 13


def test_location_sum_broken_alone():
    boards = parse(VALID)
    swap(boards, 3, (2, 5), (3, 5))  # R2C5: 3+3+2 = 8, R3C5: 1+2+1 = 4; one 5 and one 7 stay balanced
    assert sum(b[at(2, 5)].number for b in boards) == 8
    violations = validate_boards(frozen(boards))
    assert {v.rule for v in violations} == {"location_sum"}
    assert sorted(c for v in violations for c in v.cells) == [(0, 2, 5), (0, 3, 5)]


def test_location_balance_breaks_with_the_counts():
    # The counts 8/9/8 make every board sum to 50, which forces as many 5s as 7s: the balance can only
    # break together with a count.
    boards = parse(VALID)
    renumber(boards, 3, (1, 3), 3)  # R1C3: 3+1+3 = 7 (was 6)
    broken = validate_boards(frozen(boards))
    balance = [v for v in broken if v.rule == "location_balance"]
    assert len(balance) == 1 and (0, 1, 3) in balance[0].cells
    assert "number_counts" in {v.rule for v in broken}


def test_line_numbers_broken_alone():
    boards = parse(VALID)
    swap(boards, 1, (3, 5), (4, 2))  # column 2 of round 1 (3r 1b 3y 2r 3y) loses its only 2
    violations = validate_boards(frozen(boards))
    assert {v.rule for v in violations} == {"line_numbers"}
    assert [v.message for v in violations] == ["Round 1, column 2 has no 2 card."]
    assert all(col == 2 for v in violations for (_, _, col) in v.cells)


def test_line_colours_broken_alone():
    boards = parse(VALID)
    swap(boards, 1, (2, 2), (3, 5))
    assert rules_broken(boards) == {"line_colours"}


def test_adjacent_same_number_and_colour_broken_alone():
    # The two bullets say the same thing (two adjacent cards may not match in both number and colour),
    # so a pair of twins breaks both and nothing else.
    boards = parse(VALID)
    recolour(boards, 3, (1, 3), Y)  # now 2y next to the 2y below it
    recolour(boards, 3, (1, 1), R)  # keeps the colour counts and sums
    violations = validate_boards(frozen(boards))
    assert {v.rule for v in violations} == {"adjacent_same_number", "adjacent_same_colour"}
    assert all(set(v.cells) == {(3, 1, 3), (3, 2, 3)} for v in violations)


def test_diagonal_adjacency_setting_also_checks_diagonal_twins():
    boards = frozen(parse(VALID))
    diagonal_twins = [
        (r, i)
        for r, board in enumerate(boards)
        for i in range(25)
        if i % 5 < 4 and i < 20 and board[i] == board[i + 6]
    ]
    flagged = {v.rule for v in validate_boards(boards, diagonal_adjacency=True)}
    assert bool(diagonal_twins) == ("adjacent_same_number" in flagged)


def test_number_counts_broken_alone():
    boards = parse(VALID)
    renumber(boards, 1, (4, 1), 1)  # two yellow 2s become a yellow 1 and a yellow 3
    renumber(boards, 1, (4, 4), 3)
    violations = validate_boards(frozen(boards))
    assert {v.rule for v in violations} == {"number_counts"}
    assert {v.message for v in violations} == {
        "Round 1 has 9 cards numbered 1, not 8.",
        "Round 1 has 7 cards numbered 2, not 9.",
        "Round 1 has 9 cards numbered 3, not 8.",
    }


def test_colour_counts_broken_alone():
    boards = parse(VALID)
    a, b = boards[1][at(1, 2)], boards[2][at(1, 2)]
    boards[1][at(1, 2)], boards[2][at(1, 2)] = b, a  # 1y and 1r trade rounds
    assert rules_broken(boards) == {"colour_counts"}


def test_colour_board_sum_broken_alone():
    boards = parse(VALID)
    recolour(boards, 1, (1, 1), Y)
    recolour(boards, 1, (3, 4), B)
    recolour(boards, 2, (1, 5), B)
    recolour(boards, 2, (3, 3), Y)
    assert rules_broken(boards) == {"colour_board_sum"}
    totals = {c: sum(card.number for card in boards[0] if card.colour == c) for c in (R, B, Y)}
    assert sorted(totals.values()) != [16, 17, 17]


def test_colour_game_sum_broken_alone():
    boards = parse(VALID)
    recolour(boards, 1, (1, 1), Y)
    recolour(boards, 1, (5, 2), B)
    violations = validate_boards(frozen(boards))
    assert {v.rule for v in violations} == {"colour_game_sum"}
    assert {v.message for v in violations} == {
        "The blue cards of the 3 rounds sum to 51.",
        "The yellow cards of the 3 rounds sum to 49.",
    }


def test_no_repeat_broken_alone():
    boards = parse(VALID)
    swap(boards, 1, (1, 1), (4, 1))  # round 1's R4C1 becomes 2b, as it is in round 2
    violations = validate_boards(frozen(boards))
    assert {v.rule for v in violations} == {"no_repeat"}
    assert violations[0].cells == ((1, 4, 1), (2, 4, 1))


def test_number_groups_broken_alone():
    boards = parse(VALID)
    swap(boards, 1, (2, 5), (5, 4))
    violations = validate_boards(frozen(boards))
    assert {v.rule for v in violations} == {"number_groups"}
    assert len(violations[0].cells) >= 3


def test_colour_groups_broken_alone():
    boards = parse(VALID)
    swap(boards, 1, (1, 1), (2, 1))  # R2C1, R2C2 and R3C1 are now three connected blues
    violations = validate_boards(frozen(boards))
    assert {v.rule for v in violations} == {"colour_groups"}
    assert set(violations[0].cells) == {(1, 2, 1), (1, 2, 2), (1, 3, 1)}


def test_a_wrong_shape_is_reported():
    boards = frozen(parse(VALID))
    assert [v.rule for v in validate_boards(boards[:2])] == ["shape"]


@settings(max_examples=6, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_generated_sets_obey_every_rule(seed):
    assert validate_boards(generate_boards(random.Random(seed))) == []


def test_the_same_seed_generates_the_same_boards():
    assert generate_boards(random.Random(7)) == generate_boards(random.Random(7))
