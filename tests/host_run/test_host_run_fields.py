"""games/host_run/rules/fields.py: a host's form definition checked, keyed, answered, described."""

import jsonschema
import pytest

from games.host_run.rules.fields import (
    KINDS,
    Problem,
    answer_problems,
    clean_answers,
    definition_problems,
    describe,
    json_schema,
    keyed,
)
from games.platform.kit import RulesError

PLAYERS = {0: "ann", 1: "bob", 2: "cy"}


def q(kind, label, **kw):
    return {"kind": kind, "label": label, **kw}


FORM = [
    q("number", "Bid", minimum=0, maximum=10, help="Chips you bid"),
    q("player", "Target"),
    q("yes_no", "Ally"),
    q("choice", "Door", options="Red\nBlue\n\nGreen\n"),
    q("choices", "Allies", options=["a", "b", "c"], minimum=1, maximum=2),
    q("short_text", "Motto", required=False, maximum=10),
    q("long_text", "Plan", required=False),
]
GOOD = {
    "bid": 5,
    "target": 1,
    "ally": False,
    "door": "Blue",
    "allies": ["c", "a"],
    "motto": "Go",
    "plan": "x",
}


def problems_of(fields):
    return {(p.index, p.attribute) for p in definition_problems(fields)}


# ---- definitions ----------------------------------------------------------------------------------------


def test_kinds_are_listed_in_words():
    assert [k for k, _ in KINDS] == [
        "short_text",
        "long_text",
        "number",
        "choice",
        "choices",
        "player",
        "yes_no",
    ]
    assert dict(KINDS)["number"] == "Whole number"


def test_a_good_form_has_no_problems():
    assert definition_problems(FORM) == []


def test_a_form_with_no_question_is_refused():
    assert definition_problems([]) == [
        Problem(None, "fields", "This form has no questions: add at least one.")
    ]


def test_a_question_needs_a_label_and_a_known_kind():
    found = definition_problems([q("number", "  "), q("essay", "Bid"), {"label": "X"}])
    assert (0, "label") in {(p.index, p.attribute) for p in found}
    kinds = [p for p in found if p.attribute == "kind"]
    assert [p.index for p in kinds] == [1, 2]
    assert "“essay”" in kinds[0].message and "Whole number" in kinds[0].message
    assert "(none)" in kinds[1].message


def test_a_label_and_help_have_a_most_length():
    assert problems_of([q("number", "x" * 81, help="h" * 201)]) == {(0, "label"), (0, "help")}


def test_a_number_whose_least_exceeds_its_most_is_refused():
    found = definition_problems([q("number", "Bid", minimum=5, maximum=3)])
    assert found == [Problem(0, "maximum", "The most (3) is less than the least (5).")]
    assert definition_problems([q("number", "Bid", minimum=-5, maximum=-5)]) == []


def test_bounds_must_be_whole_numbers():
    assert problems_of([q("number", "Bid", minimum="two", maximum=1.5)]) == {(0, "minimum"), (0, "maximum")}
    assert definition_problems([q("number", "Bid", minimum="2", maximum=" 7 ", options="")]) == []
    assert definition_problems([q("number", "Bid", minimum=True)])[0].attribute == "minimum"


@pytest.mark.parametrize("kind", ["choice", "choices"])
def test_a_choice_needs_two_different_options(kind):
    assert problems_of([q(kind, "Door", options="Red\n\n")]) == {(0, "options")}
    assert problems_of([q(kind, "Door")]) == {(0, "options")}
    dup = definition_problems([q(kind, "Door", options=["Red", "Blue", " red "])])
    assert dup == [Problem(0, "options", "The option “red” is there twice: each option must differ.")]


def test_an_option_has_a_most_length():
    assert problems_of([q("choice", "Door", options=["a", "b" * 101])]) == {(0, "options")}


def test_several_choices_count_within_the_options():
    opts = ["a", "b", "c"]
    assert definition_problems([q("choices", "X", options=opts, minimum=0, maximum=3)]) == []
    assert problems_of([q("choices", "X", options=opts, minimum=4)]) == {(0, "minimum")}
    assert problems_of([q("choices", "X", options=opts, minimum=-1)]) == {(0, "minimum")}
    assert problems_of([q("choices", "X", options=opts, maximum=4)]) == {(0, "maximum")}
    assert problems_of([q("choices", "X", options=opts, maximum=0)]) == {(0, "maximum")}
    found = definition_problems([q("choices", "X", options=opts, minimum=3, maximum=2)])
    assert found == [Problem(0, "maximum", "“At most” (2) is less than “at least” (3).")]


def test_a_one_choice_question_has_no_least_or_most():
    assert problems_of([q("choice", "Door", options="a\nb", maximum=1)]) == {(0, "maximum")}


def test_a_text_has_a_most_length_and_no_least():
    assert problems_of([q("short_text", "M", maximum=0)]) == {(0, "maximum")}
    assert problems_of([q("long_text", "M", maximum=20001)]) == {(0, "maximum")}
    assert problems_of([q("short_text", "M", minimum=3)]) == {(0, "minimum")}
    assert definition_problems([q("long_text", "M", maximum=20000)]) == []


@pytest.mark.parametrize("kind", ["yes_no", "player"])
def test_yes_no_and_player_refuse_bounds_and_options(kind):
    assert problems_of([q(kind, "X", minimum=0)]) == {(0, "minimum")}
    assert problems_of([q(kind, "X", maximum=1)]) == {(0, "maximum")}
    assert problems_of([q(kind, "X", options="a\nb")]) == {(0, "options")}


def test_options_only_for_choices():
    assert problems_of([q("number", "X", options=["a"])]) == {(0, "options")}
    assert definition_problems([q("number", "X", options="\n  \n")]) == []


def test_two_questions_with_one_label_are_refused():
    found = definition_problems([q("number", "Bid"), q("yes_no", "Ally"), q("short_text", " bid ")])
    assert found == [
        Problem(2, "label", "Question 1 is also called “bid”: give each question of a form its own label.")
    ]


def test_host_text_is_data_not_a_format_string():
    found = definition_problems([q("{0.__class__}", "{label}"), q("number", "{label}")])
    assert "{0.__class__}" in found[0].message
    assert "“{label}”" in found[1].message


# ---- keyed ----------------------------------------------------------------------------------------------


def test_keys_are_slugs_of_labels_made_unique():
    fields = keyed(
        [
            q("number", "Bid"),
            q("number", "Bid!"),
            q("number", "Your bid?"),
            q("yes_no", "Café au lait"),
            q("yes_no", "???"),
            q("yes_no", "Round number"),
            q("yes_no", "Bid 2"),
        ]
    )
    assert [f["key"] for f in fields] == [
        "bid",
        "bid_2",
        "your_bid",
        "cafe_au_lait",
        "question_5",
        "round_number_2",
        "bid_2_2",
    ]


def test_keyed_normalizes_and_keeps_given_keys():
    fields = keyed(
        [
            {"kind": "choice", "label": " Door ", "options": "a\n\n b \n", "required": False, "minimum": ""},
            {"key": "bid", "kind": "number", "label": "Stake", "minimum": "1", "maximum": 9},
        ]
    )
    assert fields == [
        {
            "key": "door",
            "kind": "choice",
            "label": "Door",
            "help": "",
            "required": False,
            "minimum": None,
            "maximum": None,
            "options": ["a", "b"],
        },
        {
            "key": "bid",
            "kind": "number",
            "label": "Stake",
            "help": "",
            "required": True,
            "minimum": 1,
            "maximum": 9,
            "options": [],
        },
    ]
    assert keyed(fields) == fields  # keying again changes nothing


def test_keyed_copies():
    original = [q("number", "Bid")]
    keyed(original)[0]["label"] = "changed"
    assert original == [q("number", "Bid")]


# ---- answers --------------------------------------------------------------------------------------------


def test_good_answers_are_cleaned():
    assert clean_answers(FORM, GOOD, PLAYERS) == {**GOOD, "allies": ["a", "c"]}


def test_answers_from_a_form_arrive_as_strings():
    payload = {"bid": " 10 ", "target": "2", "ally": "yes", "door": "green", "allies": ["b"], "motto": ""}
    assert clean_answers(FORM, payload, PLAYERS) == {
        "bid": 10,
        "target": 2,
        "ally": True,
        "door": "Green",
        "allies": ["b"],
        "motto": None,
        "plan": None,
    }


@pytest.mark.parametrize("word,value", [("yes", True), ("No", False), ("true", True), ("FALSE", False)])
def test_yes_no_words(word, value):
    assert clean_answers([q("yes_no", "Ally")], {"ally": word}, PLAYERS) == {"ally": value}


def test_a_required_yes_no_accepts_no():
    assert clean_answers([q("yes_no", "Ally")], {"ally": False}, PLAYERS) == {"ally": False}
    assert clean_answers([q("yes_no", "Ally")], {"ally": "no"}, PLAYERS) == {"ally": False}


def test_a_missing_optional_answer_is_none_or_empty():
    fields = [
        q(kind, kind, required=False, options=["a", "b"] if "choice" in kind else "") for kind, _ in KINDS
    ]
    assert clean_answers(fields, {}, PLAYERS) == {
        "short_text": None,
        "long_text": None,
        "number": None,
        "choice": None,
        "choices": [],
        "player": None,
        "yes_no": None,
    }


@pytest.mark.parametrize(
    "answer,words",
    [
        (11, "A whole number from 0 to 10."),
        (-1, "A whole number from 0 to 10."),
        ("5.5", "A whole number from 0 to 10."),
        (5.0, "A whole number from 0 to 10."),
        (True, "A whole number from 0 to 10."),
        ("five", "A whole number from 0 to 10."),
        ("9" * 5000, "A whole number from 0 to 10."),
        (None, "This is required."),
        ("  ", "This is required."),
    ],
)
def test_number_problems(answer, words):
    fields = [q("number", "Bid", minimum=0, maximum=10)]
    assert answer_problems(fields, {"bid": answer}, PLAYERS) == {"bid": words}


def test_number_words_for_one_bound_or_none():
    assert answer_problems([q("number", "N", minimum=1)], {"n": 0}, PLAYERS) == {
        "n": "A whole number, at least 1."
    }
    assert answer_problems([q("number", "N", maximum=3)], {"n": 4}, PLAYERS) == {
        "n": "A whole number, at most 3."
    }
    assert answer_problems([q("number", "N")], {"n": "x"}, PLAYERS) == {"n": "A whole number."}
    assert clean_answers([q("number", "N")], {"n": "-40"}, PLAYERS) == {"n": -40}


def test_text_problems():
    short = [q("short_text", "Motto", maximum=5)]
    assert answer_problems(short, {"motto": "toolong"}, PLAYERS) == {
        "motto": "At most 5 characters (this has 7)."
    }
    assert answer_problems(short, {"motto": "a\nb"}, PLAYERS) == {"motto": "Keep it to one line."}
    assert answer_problems(short, {"motto": 12}, PLAYERS) == {"motto": "Write your answer as text."}
    assert clean_answers(short, {"motto": "  hi  "}, PLAYERS) == {"motto": "hi"}
    long = [q("long_text", "Plan")]
    assert clean_answers(long, {"plan": "a\r\nb"}, PLAYERS) == {"plan": "a\nb"}
    assert answer_problems(long, {"plan": "x" * 5001}, PLAYERS) == {
        "plan": "At most 5000 characters (this has 5001)."
    }


def test_choice_problems():
    fields = [q("choice", "Door", options="Red\nBlue")]
    assert answer_problems(fields, {"door": "Pink"}, PLAYERS) == {"door": "Choose one of: Red, Blue."}
    assert answer_problems(fields, {"door": ["Red"]}, PLAYERS) == {"door": "Choose one of: Red, Blue."}
    many = [q("choice", "N", options=[str(n) for n in range(12)])]
    assert answer_problems(many, {"n": "x"}, PLAYERS)["n"].endswith("8, 9, ….")


def test_choices_problems():
    fields = [q("choices", "Allies", options=["a", "b", "c"], minimum=2, maximum=2)]
    assert answer_problems(fields, {"allies": ["a"]}, PLAYERS) == {"allies": "Choose at least 2."}
    assert answer_problems(fields, {"allies": ["a", "b", "c"]}, PLAYERS) == {"allies": "Choose at most 2."}
    assert answer_problems(fields, {"allies": ["a", "A"]}, PLAYERS) == {
        "allies": "“a” is chosen twice: choose each once."
    }
    assert answer_problems(fields, {"allies": ["a", "z"]}, PLAYERS) == {"allies": "Choose from: a, b, c."}
    assert answer_problems(fields, {"allies": 3}, PLAYERS) == {"allies": "Choose from the list."}
    assert answer_problems(fields, {"allies": []}, PLAYERS) == {"allies": "This is required."}
    optional = [q("choices", "Allies", options=["a", "b", "c"], minimum=2, required=False)]
    assert clean_answers(optional, {"allies": []}, PLAYERS) == {"allies": []}
    assert answer_problems(optional, {"allies": ["b"]}, PLAYERS) == {"allies": "Choose at least 2."}
    single = [q("choices", "Allies", options=["a", "b"])]
    assert clean_answers(single, {"allies": "b"}, PLAYERS) == {"allies": ["b"]}


def test_player_problems():
    fields = [q("player", "Target")]
    for answer in (7, "7", "ann", True, -1, "1.0"):
        assert answer_problems(fields, {"target": answer}, PLAYERS) == {
            "target": "Choose one of the game's players."
        }
    assert clean_answers(fields, {"target": "0"}, PLAYERS) == {"target": 0}


def test_yes_no_problems():
    fields = [q("yes_no", "Ally")]
    assert answer_problems(fields, {"ally": "maybe"}, PLAYERS) == {"ally": "Answer yes or no."}
    assert answer_problems(fields, {"ally": 1}, PLAYERS) == {"ally": "Answer yes or no."}
    assert answer_problems(fields, {}, PLAYERS) == {"ally": "This is required."}


def test_every_problem_at_once_and_unknown_keys():
    found = answer_problems(FORM, {"bid": 99, "door": "Pink", "x": 1}, PLAYERS)
    assert found == {
        "bid": "A whole number from 0 to 10.",
        "target": "This is required.",
        "ally": "This is required.",
        "door": "Choose one of: Red, Blue, Green.",
        "allies": "This is required.",
        "x": "This form has no question called x.",
    }
    assert answer_problems(FORM, GOOD, PLAYERS) == {}
    assert answer_problems(FORM, ["bid"], PLAYERS) == {
        None: "Send the answers as an object: each question's key and its answer."
    }


def test_clean_answers_raises_the_first_problem_naming_its_question():
    with pytest.raises(RulesError) as caught:
        clean_answers(FORM, {**GOOD, "bid": 11, "target": 9}, PLAYERS)
    assert (caught.value.message, caught.value.field) == ("Bid: a whole number from 0 to 10.", "bid")
    with pytest.raises(RulesError) as caught:
        clean_answers(FORM, {**GOOD, "target": "9"}, PLAYERS)
    assert (caught.value.message, caught.value.field) == (
        "Target: choose one of the game's players.",
        "target",
    )
    with pytest.raises(RulesError) as caught:
        clean_answers(FORM, {**GOOD, "allies": ["a", "b", "c"]}, PLAYERS)
    assert caught.value.message == "Allies: choose at most 2."
    with pytest.raises(RulesError) as caught:
        clean_answers(FORM, {**GOOD, "x": 1}, PLAYERS)
    assert (caught.value.message, caught.value.field) == ("This form has no question called x.", "x")


def test_answers_are_data():
    fields = [q("short_text", "Motto")]
    assert clean_answers(fields, {"motto": "{0.__class__} %s"}, PLAYERS) == {"motto": "{0.__class__} %s"}


# ---- the schema -----------------------------------------------------------------------------------------


def test_json_schema_shape():
    schema = json_schema(FORM, PLAYERS)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["required"] == ["bid", "target", "ally", "door", "allies"]
    props = schema["properties"]
    assert props["bid"] == {
        "title": "Bid",
        "description": "Chips you bid",
        "type": "integer",
        "minimum": 0,
        "maximum": 10,
    }
    assert props["target"]["enum"] == [0, 1, 2] and "0 ann" in props["target"]["description"]
    assert props["ally"]["type"] == "boolean"
    assert props["door"]["enum"] == ["Red", "Blue", "Green"]
    assert props["allies"]["minItems"] == 1 and props["allies"]["maxItems"] == 2
    assert props["motto"]["maxLength"] == 10 and props["motto"]["type"] == ["string", "null"]
    assert props["plan"]["maxLength"] == 5000
    assert json_schema([q("player", "T")])["properties"]["t"]["minimum"] == 0


def test_json_schema_agrees_with_clean_answers():
    validator = jsonschema.Draft202012Validator(json_schema(FORM, PLAYERS))
    assert validator.is_valid(GOOD)
    assert validator.is_valid({**GOOD, "motto": None, "plan": None})
    assert answer_problems(FORM, {**GOOD, "motto": None, "plan": None}, PLAYERS) == {}
    for bad in (
        {**GOOD, "bid": 11},
        {**GOOD, "target": 5},
        {**GOOD, "door": "Pink"},
        {**GOOD, "allies": []},
        {**GOOD, "allies": ["a", "b", "c"]},
        {**GOOD, "allies": ["a", "a"]},
        {**GOOD, "motto": "x" * 11},
        {**GOOD, "x": 1},
        {k: v for k, v in GOOD.items() if k != "ally"},
    ):
        assert not validator.is_valid(bad), bad
        assert answer_problems(FORM, bad, PLAYERS), bad


def test_json_schema_optional_several_choices_with_a_least():
    fields = [q("choices", "A", options=["a", "b", "c"], minimum=2, required=False)]
    validator = jsonschema.Draft202012Validator(json_schema(fields))
    assert validator.is_valid({"a": []}) and validator.is_valid({"a": ["a", "b"]})
    assert not validator.is_valid({"a": ["a"]})


# ---- describe -------------------------------------------------------------------------------------------


def test_describe_in_one_line():
    plan = "Go left at the fork, then wait.\n" * 4
    line = describe(FORM, {**GOOD, "ally": True, "motto": None, "plan": plan}, PLAYERS)
    assert line.startswith(
        "Bid: 5; Target: bob; Ally: yes; Door: Blue; Allies: c, a; Motto: —; Plan: “Go left"
    )
    assert line.endswith(f"…” ({len(plan)} characters)")
    assert "\n" not in line
    shown = line.split("Plan: “")[1].split("…")[0]
    assert len(shown) <= 80


def test_describe_short_text_whole_and_unknown_seat():
    fields = [q("short_text", "Motto"), q("player", "Target"), q("yes_no", "Ally")]
    assert describe(fields, {"motto": "Win", "target": 7, "ally": False}, PLAYERS) == (
        "Motto: “Win”; Target: seat 7; Ally: no"
    )
    assert describe(fields, None, PLAYERS) == "Motto: —; Target: —; Ally: —"
    assert describe([], {}, PLAYERS) == "(no questions)"
