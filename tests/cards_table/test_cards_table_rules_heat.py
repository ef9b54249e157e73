"""Every built-in heat rule obeys every statement of the "Heat Indicator" section; host overrides."""

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards_table.rules import (
    HEAT_RULES,
    Card,
    Colour,
    HeatIndicator,
    Settings,
    Shade,
    compute_heat,
    new_game,
)
from games.cards_table.rules.heat import SIDES, side_sums, surrounding_sum
from games.cards_table.rules.play import heat_at, set_heat_override

from .fixtures import VALID, frozen, parse

RANK = {Shade.WHITE: 0, Shade.GREY: 1, Shade.BLACK: 2}
numbers_st = st.lists(st.integers(1, 3), min_size=25, max_size=25)
cell_st = st.tuples(st.integers(1, 5), st.integers(1, 5))
rules = pytest.mark.parametrize("rule", sorted(HEAT_RULES))


def neighbourhood(row: int, col: int) -> set[int]:
    return {((row - 1 + dr) % 5) * 5 + (col - 1 + dc) % 5 for dr in (-1, 0, 1) for dc in (-1, 0, 1)} - {
        (row - 1) * 5 + col - 1
    }


def test_there_are_at_least_three_rules():
    assert len(HEAT_RULES) >= 3


@rules
@settings(max_examples=60, deadline=None)
@given(
    numbers=numbers_st,
    cell=cell_st,
    colours=st.lists(st.sampled_from(list(Colour)), min_size=25, max_size=25),
)
def test_determined_only_by_the_numbers_not_the_colours(rule, numbers, cell, colours):
    boards = frozen(parse(VALID))
    recoloured = tuple(tuple(Card(c.number, colours[i]) for i, c in enumerate(b)) for b in boards)
    state = new_game(Settings(heat_rule=rule), boards=boards)
    other = replace(state, boards=recoloured)
    assert heat_at(state, 1, *cell) == heat_at(other, 1, *cell)


@rules
@settings(max_examples=80, deadline=None)
@given(numbers=numbers_st, cell=cell_st, changes=st.lists(st.tuples(st.integers(0, 24), st.integers(1, 3))))
def test_based_only_on_the_eight_cards_around_it(rule, numbers, cell, changes):
    around = neighbourhood(*cell)
    changed = list(numbers)
    for i, n in changes:
        if i not in around:  # the card itself and every card further away
            changed[i] = n
    assert compute_heat(rule, numbers, *cell) == compute_heat(rule, changed, *cell)


@rules
@settings(max_examples=80, deadline=None)
@given(numbers=numbers_st, cell=cell_st)
def test_border_cards_wrap_around_as_if_the_board_were_tessellated(rule, numbers, cell):
    # Shift the board so the card sits in the centre: the indicator must not change.
    row, col = cell
    shifted = [numbers[((r + row - 3) % 5) * 5 + (c + col - 3) % 5] for r in range(5) for c in range(5)]
    assert compute_heat(rule, numbers, row, col) == compute_heat(rule, shifted, 3, 3)


@rules
@settings(max_examples=150, deadline=None)
@given(numbers=numbers_st, cell=cell_st)
def test_black_means_more_points_that_way_and_white_fewer(rule, numbers, cell):
    heat = compute_heat(rule, numbers, *cell)
    sums = side_sums(numbers, *cell)
    for d in SIDES:
        shade = getattr(heat, d)
        if shade is Shade.BLACK:
            assert any(sums[d] > sums[e] for e in SIDES)
        if shade is Shade.WHITE:
            assert any(sums[d] < sums[e] for e in SIDES)
        for e in SIDES:
            # A darker triangle always faces more points than a lighter one on the same card.
            if RANK[shade] > RANK[getattr(heat, e)]:
                assert sums[d] > sums[e]
    total = surrounding_sum(numbers, *cell)
    if heat.background is Shade.BLACK:
        assert total > 16
    if heat.background is Shade.WHITE:
        assert total < 16


@rules
def test_a_triangle_depends_on_the_other_triangles_of_the_card(rule):
    triangles = HEAT_RULES[rule][0]
    level = triangles({"top": 6, "right": 6, "bottom": 6, "left": 6})
    beaten = triangles({"top": 6, "right": 9, "bottom": 9, "left": 9})
    beating = triangles({"top": 6, "right": 3, "bottom": 3, "left": 3})
    assert level["top"] is Shade.GREY
    assert beaten["top"] is Shade.WHITE
    assert beating["top"] is Shade.BLACK


@rules
def test_independent_of_the_indicators_of_the_surrounding_cards(rule):
    state = new_game(Settings(heat_rule=rule), boards=frozen(parse(VALID)))
    before = heat_at(state, 1, 3, 3)
    odd = HeatIndicator(Shade.BLACK, Shade.BLACK, Shade.WHITE, Shade.WHITE, Shade.GREY)
    for row, col in ((2, 2), (2, 3), (2, 4), (3, 2), (3, 4), (4, 2), (4, 3), (4, 4)):
        state, _ = set_heat_override(state, 1, row, col, odd)
    assert heat_at(state, 1, 3, 3) == before


def test_extremes_rule_on_a_hand_made_board():
    numbers = [
        1, 1, 1, 1, 1,
        1, 3, 3, 3, 1,
        1, 1, 2, 1, 1,
        1, 1, 1, 1, 1,
        1, 1, 1, 1, 1,
    ]  # fmt: skip
    # Around R3C3: top 3+3+3 = 9, right 3+1+1 = 5, bottom 1+1+1 = 3, left 3+1+1 = 5, all eight 14.
    heat = compute_heat("extremes", numbers, 3, 3)
    assert heat == HeatIndicator(Shade.BLACK, Shade.GREY, Shade.WHITE, Shade.GREY, Shade.WHITE)


def test_the_host_overrides_one_card_and_can_take_it_back():
    state = new_game(Settings(heat_rule="mean"), boards=frozen(parse(VALID)))
    computed = heat_at(state, 2, 1, 1)
    odd = HeatIndicator(Shade.WHITE, Shade.WHITE, Shade.WHITE, Shade.WHITE, Shade.BLACK)
    state, _ = set_heat_override(state, 2, 1, 1, odd)
    assert heat_at(state, 2, 1, 1) == odd
    assert heat_at(state, 1, 1, 1) == compute_heat("mean", [c.number for c in state.boards[0]], 1, 1)
    state, _ = set_heat_override(state, 2, 1, 1, None)
    assert heat_at(state, 2, 1, 1) == computed


def test_the_rule_is_drawn_from_the_seed_when_not_chosen():
    drawn = {new_game(rng=random.Random(seed), boards=frozen(parse(VALID))).heat_rule for seed in range(30)}
    assert drawn == set(HEAT_RULES)
