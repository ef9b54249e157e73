"""Input and output shapes of the API. Game state itself is the observation: a JSON object."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer

from ..models import Event
from ..services.invitations import MAX_USES, TOO_MANY_USES

# Every integer the API takes is bounded, so a number past what the site could store is a 400 naming its
# field, never a database error (issue 28): ids fit a 64-bit key, round and seat numbers a small integer,
# amounts of garnets and Tokens of Life stay far inside the ledger's integer column.
MAX_ID = 2**63 - 1
MAX_NUMBER = 32767
MAX_AMOUNT = 1_000_000


class GameListItemOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    type = serializers.CharField()
    status = serializers.CharField()
    season = serializers.CharField()
    role = serializers.CharField()


class ObservationOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    type = serializers.CharField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    viewer = serializers.DictField()
    players = serializers.ListField(child=serializers.DictField())
    round = serializers.DictField(allow_null=True)
    clock = serializers.DictField(allow_null=True)
    sitting = serializers.DictField(
        allow_null=True,
        help_text='A live match waiting for its players: who is here (`seats`, `text`: "2 of 7 here: ann, '
        "ben\"), what it waits for (`waiting_for`), the hosts' choices (`clocks_start`, `start_time`, "
        "`absent_at_start`) and, for a player, `you_are_here`. Null once the clocks run.",
    )
    announcements = serializers.ListField(child=serializers.DictField())
    inbox = serializers.ListField(child=serializers.DictField())
    state = serializers.DictField()


class EventOut(serializers.Serializer):
    id = serializers.CharField(help_text="The event's ref: a random name, the feed's cursor (`after`)")
    kind = serializers.CharField()
    category = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    text = serializers.CharField()
    to = serializers.CharField(allow_null=True)
    at = serializers.CharField()


class FeedOut(serializers.Serializer):
    version = serializers.IntegerField()
    events = EventOut(many=True)


class SubmissionIn(serializers.Serializer):
    round = serializers.IntegerField(
        min_value=0, max_value=MAX_NUMBER, help_text="The round this submission is for."
    )
    payload = serializers.DictField(
        help_text="The round's form, as the game type defines it (its guide says what it asks). A host-run "
        "game's form is the hosts' data: GET /api/games/{id}/round-form/ publishes its JSON Schema (one key "
        "per question); a wrong answer is a 400 with `errors` under that question's key."
    )
    final = serializers.BooleanField(default=False, help_text="Mark it final (the round may close early).")


class RoundFormOut(serializers.Serializer):
    round = serializers.IntegerField(
        allow_null=True, help_text="The game's latest round; null before the first."
    )
    status = serializers.CharField(
        allow_null=True,
        help_text="That round's status: open (submissions are taken), closed (results coming), resolved, "
        "failed; null before the first round.",
    )
    schema = serializers.DictField(
        allow_null=True,
        help_text="A JSON Schema of that round's submission `payload` (a host-run game: one property per "
        "question, keyed as the payload takes it; a player question's enum is the game's seat numbers). Null "
        "where the game type describes its form in its guide, or before the first round.",
    )
    note = serializers.CharField(help_text="In words: what the schema is, or where the form is described.")


class SubmissionOut(serializers.Serializer):
    round = serializers.IntegerField()
    payload = serializers.DictField()
    final = serializers.BooleanField()
    saved_at = serializers.CharField()


class ActionIn(serializers.Serializer):
    payload = serializers.DictField(help_text="The move or decision, as the game type defines it.")


class AnnounceIn(serializers.Serializer):
    text = serializers.CharField(max_length=4000)
    category = serializers.ChoiceField(
        choices=[c for c in Event.Category.choices if c[0] != "result"], default="general"
    )


class ExtendIn(serializers.Serializer):
    minutes = serializers.IntegerField(min_value=1, max_value=60 * 24 * 7)


class SeatIn(serializers.Serializer):
    username = serializers.CharField()


class ReplaceIn(serializers.Serializer):
    seat = serializers.IntegerField(
        min_value=0,
        max_value=MAX_NUMBER,
        help_text="The seat number of the absent player, or of the one who left (0 is seat 1).",
    )
    username = serializers.CharField(help_text="The player who takes the seat; they are here at once.")


class ExcuseIn(serializers.Serializer):
    seat = serializers.IntegerField(
        min_value=0, max_value=MAX_NUMBER, help_text="The seat number (0 is seat 1)."
    )
    round = serializers.IntegerField(
        min_value=0, max_value=MAX_NUMBER, help_text="The round whose missed submission is excused."
    )


class GameCreateIn(serializers.Serializer):
    season = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    type = serializers.CharField()
    name = serializers.CharField(max_length=120)
    settings = serializers.DictField(required=False, default=dict)
    public = serializers.BooleanField(default=True)


class BalanceOut(serializers.Serializer):
    season = serializers.CharField()
    balances = serializers.DictField(child=serializers.IntegerField())


class DetailOut(serializers.Serializer):
    detail = serializers.CharField()


class ChatMessageOut(serializers.Serializer):
    id = serializers.CharField(help_text="The message's ref: a random name, the chat's cursor (`after`)")
    author = serializers.CharField(help_text="The name the writer goes by (their display name)")
    author_username = serializers.CharField()
    text = serializers.CharField()
    at = serializers.CharField()


class ChatMessageIn(serializers.Serializer):
    text = serializers.CharField(max_length=2000)


class MuteIn(serializers.Serializer):
    muted = serializers.BooleanField()


class PickIn(serializers.Serializer):
    opponent = serializers.CharField(help_text="The username of the opponent.")


class PickOut(serializers.Serializer):
    candidate = serializers.CharField(help_text="The candidate's username")
    candidate_name = serializers.CharField(help_text="The name the candidate goes by")
    opponent = serializers.CharField(allow_null=True, help_text="The opponent's username")
    opponent_name = serializers.CharField(allow_null=True)
    deadline = serializers.CharField()
    status = serializers.CharField()
    death_match = serializers.IntegerField(allow_null=True)


class TransferIn(serializers.Serializer):
    to = serializers.CharField()
    what = serializers.ChoiceField(choices=["garnets", "tokens_of_life"], default="garnets")
    amount = serializers.IntegerField(min_value=1, max_value=MAX_AMOUNT)


class GrantIn(serializers.Serializer):
    username = serializers.CharField()
    what = serializers.ChoiceField(choices=["garnets", "tokens_of_life"])
    delta = serializers.IntegerField(min_value=-MAX_AMOUNT, max_value=MAX_AMOUNT)
    reason = serializers.CharField(max_length=200)


class InvitationIn(serializers.Serializer):
    hours = serializers.IntegerField(
        min_value=1, max_value=24 * 90, default=24 * 14, help_text="How long the link works."
    )
    max_uses = serializers.IntegerField(
        min_value=1,
        max_value=MAX_USES,
        error_messages={"max_value": TOO_MANY_USES},
        required=False,
        allow_null=True,
        default=None,
        help_text=f"Empty: no limit. At most {MAX_USES}.",
    )
    note = serializers.CharField(max_length=120, required=False, default="", allow_blank=True)


class InvitationOut(serializers.Serializer):
    id = serializers.IntegerField()
    season = serializers.IntegerField(source="season_id")
    url = serializers.CharField(help_text="The link to send: opening it signs up or logs in, and joins.")
    expires_at = serializers.DateTimeField()
    max_uses = serializers.IntegerField(allow_null=True)
    uses = serializers.IntegerField()
    note = serializers.CharField()


class HiddenIn(serializers.Serializer):
    data = serializers.DictField(help_text="The hidden data, in the shape GET returns it.")


class HiddenOut(serializers.Serializer):
    hidden = serializers.DictField()
    problems = serializers.ListField(child=serializers.CharField())


class TokenIn(AuthTokenSerializer):
    """Username and password for a token; a username longer than any user's is refused before a lookup
    (the login rate limiter would otherwise try to store it, and fail)."""

    username = serializers.CharField(
        label="Username", write_only=True, max_length=get_user_model()._meta.get_field("username").max_length
    )


class AwaitingOut(serializers.Serializer):
    game = serializers.IntegerField()
    game_name = serializers.CharField()
    need = serializers.ChoiceField(
        choices=["sit_down", "your_turn", "decision", "pick", "not_submitted", "saved_not_final"],
        help_text="What the game needs from you",
    )
    text = serializers.CharField(help_text='In words: "Round 3: not submitted", "Your turn"')
    deadline = serializers.DateTimeField(allow_null=True)
    paused_seconds = serializers.FloatField(allow_null=True, help_text="Time left while the game is paused")
    reserve_seconds = serializers.FloatField(
        allow_null=True, help_text="A turn or decision: the reserve left after the deadline"
    )
    reserve_increment = serializers.FloatField(
        allow_null=True, help_text="The steps the reserve is drawn in once the deadline passes"
    )
    round = serializers.IntegerField(allow_null=True)
    url = serializers.CharField(help_text="The page where you do it")
