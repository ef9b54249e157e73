"""games/host_run/forms.py: the round form a player fills, built from the hosts' questions."""

from games.host_run.forms import RoundForm

PLAYERS = {0: "ann", 1: "bob"}
FIELDS = [
    {"kind": "short_text", "label": "Motto", "maximum": 20, "required": False},
    {"kind": "long_text", "label": "Plan", "help": "Tell the hosts"},
    {"kind": "number", "label": "Bid", "minimum": 0, "maximum": 10},
    {"kind": "choice", "label": "Door", "options": "Red\nBlue"},
    {"kind": "choice", "label": "Card", "options": [str(n) for n in range(1, 9)], "required": False},
    {"kind": "choices", "label": "Allies", "options": ["a", "b", "c"], "maximum": 2},
    {"kind": "player", "label": "Target"},
    {"kind": "yes_no", "label": "Ally"},
]
GOOD = {"plan": "Wait.", "bid": "3", "door": "Blue", "allies": ["a", "c"], "target": "1", "ally": "no"}


def test_each_kind_has_its_widget():
    html = str(RoundForm(FIELDS, PLAYERS))
    assert 'name="motto" maxlength="20"' in html
    assert '<textarea name="plan"' in html and 'maxlength="5000"' in html
    assert 'type="number" name="bid"' in html and 'min="0"' in html and 'max="10"' in html
    assert 'type="radio" name="door" value="Red"' in html
    assert '<select name="card"' in html and '<option value="8">8</option>' in html
    assert 'type="checkbox" name="allies" value="c"' in html
    assert '<select name="target"' in html and '<option value="1">bob</option>' in html
    assert 'type="radio" name="ally" value="yes"' in html and 'type="radio" name="ally" value="no"' in html
    assert "Tell the hosts" in html and "Choose at least 1 and at most 2." in html
    assert "You may leave this blank." in html
    form = RoundForm(FIELDS, PLAYERS)
    assert [form[k].label for k in ("motto", "plan", "ally")] == ["Motto", "Plan", "Ally"]
    assert form.fields["plan"].required and not form.fields["motto"].required


def test_a_good_save_gives_the_payload():
    form = RoundForm(FIELDS, PLAYERS, data={**GOOD, "motto": "  hi "})
    assert form.is_valid(), form.errors
    assert form.payload == {
        "motto": "hi",
        "plan": "Wait.",
        "bid": 3,
        "door": "Blue",
        "card": None,
        "allies": ["a", "c"],
        "target": 1,
        "ally": False,
    }
    assert form.cleaned_data == form.payload


def test_a_required_yes_no_accepts_no():
    form = RoundForm([{"kind": "yes_no", "label": "Ally"}], PLAYERS, data={"ally": "no"})
    assert form.is_valid() and form.payload == {"ally": False}
    form = RoundForm([{"kind": "yes_no", "label": "Ally"}], PLAYERS, data={})
    assert not form.is_valid() and form.errors["ally"] == ["This is required."]


def test_errors_by_field_in_the_rules_words_and_what_was_typed_kept():
    data = {**GOOD, "bid": "11", "allies": ["a", "b", "c"], "target": "7", "motto": "typed"}
    form = RoundForm(FIELDS, PLAYERS, data=data)
    assert not form.is_valid()
    assert form.errors == {
        "bid": ["A whole number from 0 to 10."],
        "allies": ["Choose at most 2."],
        "target": ["Choose one of the game's players."],
    }
    html = str(form)
    assert 'value="11"' in html and 'value="typed"' in html
    assert 'value="c" aria-invalid="true" id="id_allies_2" checked' in html
    assert "A whole number from 0 to 10." in html


def test_a_saved_payload_is_shown():
    saved = {"bid": 4, "ally": True, "target": 0, "allies": ["b"], "door": "Red"}
    html = str(RoundForm(FIELDS, PLAYERS, initial=saved))
    assert 'name="bid" value="4"' in html
    assert 'name="ally" value="yes" required id="id_ally_0" checked' in html
    assert '<option value="0" selected>ann</option>' in html
    assert 'value="b" id="id_allies_1" checked' in html
    assert 'name="door" value="Red" required id="id_door_0" checked' in html


def test_an_optional_one_choice_can_be_left_unanswered():
    fields = [{"kind": "choice", "label": "Door", "options": "Red\nBlue", "required": False}]
    assert 'value=""' in str(RoundForm(fields, PLAYERS))
    form = RoundForm(fields, PLAYERS, data={"door": ""})
    assert form.is_valid() and form.payload == {"door": None}


def test_host_text_is_escaped():
    fields = [
        {
            "kind": "choice",
            "label": "<script>alert(1)</script>",
            "help": "<b>bold</b>",
            "options": ["<i>x</i>", "y"],
        }
    ]
    html = str(RoundForm(fields, {0: "<img src=x>"}))
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<b>" not in html and "&lt;b&gt;bold&lt;/b&gt;" in html
    assert "<i>" not in html and "&lt;i&gt;x&lt;/i&gt;" in html
    html = str(RoundForm([{"kind": "player", "label": "T"}], {0: "<img src=x>"}))
    assert "<img" not in html and "&lt;img src=x&gt;" in html
