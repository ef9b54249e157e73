"""API views: one per operation; each validates, calls a service and answers with the observation."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from genius.login_delays import lockout_response

from .. import registry
from ..awaiting import awaiting
from ..errors import NotAllowed
from ..kit import RulesError
from ..models import DeathMatchPick, Game, Season, Submission, UnknownRef, check_cursor, rows_after
from ..observation import (
    current_round,
    event_dict,
    events_named,
    observe,
    round_dict,
    seat_of_player,
    viewer_or_404,
    visible_events,
    visible_games,
)
from ..people import shown_name
from ..services import absence, live, rounds, sitting
from ..services import games as game_services
from ..services import season as season_services
from ..services.chat import chat_access, chat_messages, chat_post, chat_read, chats_mute, require_player
from ..services.death_match import death_match_create
from ..services.events import announcement_post
from ..services.invitations import invitation_create
from ..services.ledger import balances, known_balances
from . import serializers as s

log = logging.getLogger(__name__)

# A cursor is the `id` of an event or message the viewer was given: a random ref, never a database id.
NOT_A_CURSOR = "That is not the id of a {what} you were given here: pass the id of the last one you got."


def as_stored(answer, done: str, status_code: int = status.HTTP_200_OK) -> Response:
    """The answer to a write that committed: `answer()`, the usual body (the game as the viewer sees it now).

    Building it runs the game's own code and reads the database again; if that fails (a game type that
    raises, a database gone since the commit), the write is still answered as what it is, stored: `done`
    says what was done, and the body says so (`stored`), never a 500 or a 503 that would make a client send
    a move or a host's action a second time (issue 28.3). The traceback is in the log.
    """
    try:
        return Response(answer(), status=status_code)
    except Exception:
        log.exception("A stored change could not be read back (%s)", done)
        detail = f"{done} It could not be read back just now: read the game again to see it."
        return Response({"detail": detail, "stored": True}, status=status_code)


def game_for(request, game_id: int):
    game = get_object_or_404(Game.objects.select_related("season"), pk=game_id)
    return game, viewer_or_404(game, request.user)


def player_seat(viewer):
    if viewer.role != "player":
        raise NotAllowed("Only a player seated in this game can do that.")
    return viewer.seat


def host_only(game, viewer):
    if viewer.role != "host":
        raise NotAllowed("Only a host of this game can do that.")


class GameListApi(APIView):
    @extend_schema(responses=s.GameListItemOut(many=True), summary="Games you may open")
    def get(self, request):
        user = request.user
        hosted, seated = set(), set()
        if user.is_authenticated:  # the viewer's role in every listed game, in two queries, not two per game
            hosted = set(Game.objects.filter(hosts=user).values_list("id", flat=True))
            seated = set(Game.objects.filter(seats__user=user).values_list("id", flat=True))

        def role(game):
            if user.is_authenticated and (user.is_superuser or game.id in hosted):
                return "host"
            return "player" if game.id in seated else "spectator"

        games = visible_games(user).select_related("season").order_by("-id")[:200]
        return Response(
            [
                {
                    "id": g.id,
                    "name": g.name,
                    "type": g.game_type,
                    "status": g.status,
                    "season": g.season.name,
                    "role": role(g),
                }
                for g in games
            ]
        )

    @extend_schema(request=s.GameCreateIn, responses={201: s.ObservationOut}, summary="Create a game (hosts)")
    def post(self, request):
        data = s.GameCreateIn(data=request.data)
        data.is_valid(raise_exception=True)
        season = get_object_or_404(Season, pk=data.validated_data["season"])
        if not (
            request.user.is_authenticated
            and (request.user.is_superuser or season.hosts.filter(pk=request.user.pk).exists())
        ):
            raise NotAllowed("Only a host of this season can create its games.")
        try:
            registry.get(data.validated_data["type"])
        except LookupError:
            from ..kit import RulesError

            raise RulesError("No such game type.", field="type") from None
        game = game_services.game_create(
            season=season,
            game_type=data.validated_data["type"],
            name=data.validated_data["name"],
            settings=data.validated_data["settings"],
            public=data.validated_data["public"],
            hosts=[request.user],
            actor=request.user,
        )
        return as_stored(
            lambda: observe(game, viewer_or_404(game, request.user)),
            f"Created game {game.pk}.",
            status.HTTP_201_CREATED,
        )


class GameDetailApi(APIView):
    @extend_schema(responses=s.ObservationOut, summary="What you may see of a game")
    def get(self, request, game_id: int):
        game, viewer = game_for(request, game_id)
        return Response(observe(game, viewer))


class FeedApi(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after", str, description="Only events after this one: the `id` of the last you got"
            )
        ],
        responses={200: s.FeedOut, 304: None},
        summary="New public announcements (and your own reveals) since `after`",
    )
    def get(self, request, game_id: int):
        game, viewer = game_for(request, game_id)
        after = request.query_params.get("after") or None
        visible = visible_events(game, viewer)
        found = list(rows_after(visible, after)[:500])
        try:
            check_cursor(visible, after, found)
        except UnknownRef:
            raise RulesError(NOT_A_CURSOR.format(what="event"), field="after") from None
        return Response({"version": game.version, "events": events_named(game, found)})


class RoundFormApi(APIView):
    @extend_schema(
        responses=s.RoundFormOut,
        summary="The JSON Schema of the latest round's submission payload (host-run games publish theirs)",
    )
    def get(self, request, game_id: int):
        game, _ = game_for(request, game_id)
        rnd = current_round(game)
        if rnd is None:
            note = "No round has opened yet."
            return Response({"round": None, "status": None, "schema": None, "note": note})
        schema = registry.get(game.game_type).round_form_schema(game, rnd)
        note = (
            f"The JSON Schema of Round {rnd.number}'s submission payload."
            if schema is not None
            else "This game type describes its form in its guide (the rules page), not here."
        )
        status_now = round_dict(rnd, timezone.now())["status"]
        return Response({"round": rnd.number, "status": status_now, "schema": schema, "note": note})


class SubmissionApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: s.SubmissionOut(many=True)}, summary="Your saved versions for the current round"
    )
    def get(self, request, game_id: int):
        game, viewer = game_for(request, game_id)
        seat = player_seat(viewer)
        versions = (
            Submission.objects.filter(seat=seat)
            .select_related("round")
            .order_by("round__number", "created_at")
        )
        return Response(
            [
                {
                    "round": v.round.number,
                    "payload": v.payload,
                    "final": v.final,
                    "saved_at": v.created_at.isoformat(),
                }
                for v in versions
            ]
        )

    @extend_schema(
        request=s.SubmissionIn,
        responses={201: s.SubmissionOut, 409: s.DetailOut},
        summary="Save a new version of your submission",
    )
    def post(self, request, game_id: int):
        seat = seat_of_player(game_id, request.user)
        if seat is None:  # not a player of it: the full checks say why (404, or 403)
            seat = player_seat(game_for(request, game_id)[1])
        data = s.SubmissionIn(data=request.data)
        data.is_valid(raise_exception=True)
        saved = rounds.submission_save(
            seat=seat,
            round_number=data.validated_data["round"],
            payload=data.validated_data["payload"],
            final=data.validated_data["final"],
        )
        return Response(
            {
                "round": data.validated_data["round"],
                "payload": saved.payload,
                "final": saved.final,
                "saved_at": saved.created_at.isoformat(),
            },
            status=status.HTTP_201_CREATED,
        )


class ActionApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=s.ActionIn,
        responses={200: s.ObservationOut, 409: s.DetailOut},
        summary="Make a move or a decision in a live match",
    )
    def post(self, request, game_id: int):
        game, viewer = game_for(request, game_id)
        seat = player_seat(viewer)
        data = s.ActionIn(data=request.data)
        data.is_valid(raise_exception=True)
        game = live.action_apply(seat=seat, payload=data.validated_data["payload"])
        return as_stored(lambda: observe(game, viewer), "Your move was made.")


class HereApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: s.ObservationOut, 403: s.DetailOut, 409: s.DetailOut},
        summary='Say "I\'m here": sit down at a live match, whose clocks wait for every seat',
    )
    def post(self, request, game_id: int):
        game, viewer = game_for(request, game_id)
        seat = player_seat(viewer)
        game = sitting.here_say(seat=seat)
        return as_stored(lambda: observe(game, viewer), "You are here.")


class OperationApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=s.ActionIn,
        responses={200: s.ObservationOut, 409: s.DetailOut},
        summary="Run one of the game's operations (a trade, a purchase, a flip)",
    )
    def post(self, request, game_id: int, name: str):
        game, viewer = game_for(request, game_id)
        if viewer.role == "spectator":
            raise NotAllowed("Spectators cannot act in a game.")
        data = s.ActionIn(data=request.data)
        data.is_valid(raise_exception=True)
        game = live.operation_run(game=game, viewer=viewer, name=name, payload=data.validated_data["payload"])
        return as_stored(lambda: observe(game, viewer), f"Done: {name}.")


class HostApi(APIView):
    """Base for the host's operations: 403 unless a host of this game."""

    permission_classes = [permissions.IsAuthenticated]

    def host_game(self, request, game_id):
        game, viewer = game_for(request, game_id)
        host_only(game, viewer)
        return game, viewer


class HostAnnounceApi(HostApi):
    @extend_schema(request=s.AnnounceIn, responses={201: s.EventOut}, summary="Post a public announcement")
    def post(self, request, game_id: int):
        game, _ = self.host_game(request, game_id)
        data = s.AnnounceIn(data=request.data)
        data.is_valid(raise_exception=True)
        event = announcement_post(
            game=game,
            text=data.validated_data["text"],
            category=data.validated_data["category"],
            actor=request.user,
        )
        from ..services.audit import audit

        audit(action="announce", actor=request.user, game=game, event=event.id)
        return as_stored(lambda: event_dict(event), "Announcement posted.", status.HTTP_201_CREATED)


class HostExtendApi(HostApi):
    @extend_schema(request=s.ExtendIn, responses=s.ObservationOut, summary="Extend the open round's window")
    def post(self, request, game_id: int):
        game, viewer = self.host_game(request, game_id)
        data = s.ExtendIn(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = game_services.round_extend(
            game=game, by=timedelta(minutes=data.validated_data["minutes"]), actor=request.user
        )
        minutes = data.validated_data["minutes"]
        return as_stored(lambda: observe(game, viewer), f"Round {rnd.number} extended by {minutes} min.")


def simple_host_api(service, summary, done):
    class View(HostApi):
        @extend_schema(request=None, responses=s.ObservationOut, summary=summary)
        def post(self, request, game_id: int):
            game, viewer = self.host_game(request, game_id)
            service(game=game, actor=request.user)

            def answer():
                game.refresh_from_db()
                return observe(game, viewer)

            return as_stored(answer, done)

    View.__name__ = service.__name__.title().replace("_", "") + "Api"
    return View


HostPauseApi = simple_host_api(game_services.game_pause, "Pause every clock of the game", "Paused.")
HostResumeApi = simple_host_api(game_services.game_resume, "Resume the game", "Resumed.")
HostResolveApi = simple_host_api(rounds.round_resolve_now, "Resolve the open round now", "Resolved.")
HostRetryApi = simple_host_api(
    rounds.round_retry, "Reopen a failed round after fixing it", "The failed round is open again."
)
HostOpenRoundApi = simple_host_api(
    game_services.round_open_by_hand,
    "Open the next round (one opened by hand)",
    "Round opened.",
)
HostStartApi = simple_host_api(game_services.game_start, "Start the game", "Started.")


class HostSeatApi(HostApi):
    @extend_schema(request=s.SeatIn, responses=s.ObservationOut, summary="Seat a player")
    def post(self, request, game_id: int):
        game, viewer = self.host_game(request, game_id)
        data = s.SeatIn(data=request.data)
        data.is_valid(raise_exception=True)
        user = get_user_model().objects.filter(username=data.validated_data["username"]).first()
        if user is None:
            raise RulesError("No player has that username.", field="username")
        try:
            seat = game_services.game_seat(game=game, user=user, actor=request.user)
        except RulesError as exc:
            # The service speaks of the user; here the field is the username the host typed.
            raise RulesError(exc.message, field="username" if exc.field == "user" else exc.field) from exc
        return as_stored(lambda: observe(game, viewer), f"Seated in seat {seat.number + 1}.")


class HostReplaceApi(HostApi):
    @extend_schema(
        request=s.ReplaceIn,
        responses={200: s.ObservationOut, 409: s.DetailOut},
        summary=(
            "Give a seat to another player: an absent player's at a live match before its clocks start, "
            "a leaver's at a running Main Match"
        ),
    )
    def post(self, request, game_id: int):
        game, viewer = self.host_game(request, game_id)
        data = s.ReplaceIn(data=request.data)
        data.is_valid(raise_exception=True)
        given = absence.seat_replace(
            game=game,
            seat_number=data.validated_data["seat"],
            username=data.validated_data["username"],
            actor=request.user,
        )

        def answer():
            game.refresh_from_db()
            return observe(game, viewer)

        return as_stored(answer, f"Seat {given.number + 1} was given.")


class HostExcuseApi(HostApi):
    @extend_schema(
        request=s.ExcuseIn,
        responses={200: s.DetailOut, 409: s.DetailOut},
        summary="Excuse a seat's missed round (what it means is the game's: its rulings say)",
    )
    def post(self, request, game_id: int):
        game, _ = self.host_game(request, game_id)
        data = s.ExcuseIn(data=request.data)
        data.is_valid(raise_exception=True)
        seat, number = data.validated_data["seat"], data.validated_data["round"]
        meaning = absence.round_excuse(game=game, seat_number=seat, round_number=number, actor=request.user)
        return Response({"detail": f"Seat {seat + 1}'s Round {number} is excused. {meaning}"})


class TokenApi(ObtainAuthToken):
    """POST username and password, get the API token. DRF's view fixes its own parsers; these are the
    site's (JSON with a depth limit), and the username is checked for length."""

    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    serializer_class = s.TokenIn

    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            # django-axes flags the DRF request it was handed (not Django's, which its middleware reads):
            # a try while this address waits is answered with the wait, as the login form does.
            if getattr(request, "axes_locked_out", False):
                return lockout_response(request, credentials=getattr(request, "axes_credentials", None))
            raise


class MyBalancesApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=s.BalanceOut(many=True), summary="Your garnets and Tokens of Life per season")
    def get(self, request):
        seasons = Season.objects.filter(players__user=request.user)
        return Response(
            [
                {"season": season.name, "balances": balances(season=season, user=request.user)}
                for season in seasons
            ]
        )


class AwaitingApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses=s.AwaitingOut(many=True),
        summary="What your games await from you, the soonest deadline first (the home page's list)",
    )
    def get(self, request):
        return Response([item.as_dict() for item in awaiting(request.user)])


def chat_rows(messages):
    # `author`: the name the writer goes by, as the chat page shows it; `author_username` for a bot.
    return [
        {
            "id": m.ref,
            "author": shown_name(m.author),
            "author_username": m.author.username,
            "text": m.text,
            "at": m.created_at.isoformat(),
        }
        for m in messages
    ]


class ChatApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after", str, description="Only messages after this one: the `id` of the last you got"
            )
        ],
        responses=s.ChatMessageOut(many=True),
        summary="Read a pair chat (its two players and hosts); a player's reading clears their unread count",
    )
    def get(self, request, game_id: int, a: int, b: int):
        game, viewer = game_for(request, game_id)
        seat_a, seat_b = chat_access(game, viewer, a, b)
        after = request.query_params.get("after") or None
        try:
            rows = chat_rows(chat_messages(game=game, seat_a=seat_a, seat_b=seat_b, after=after))
        except UnknownRef:
            raise RulesError(NOT_A_CURSOR.format(what="message"), field="after") from None
        chat_read(viewer, seat_a, seat_b)
        return Response(rows)

    @extend_schema(request=s.ChatMessageIn, responses={201: s.ChatMessageOut}, summary="Write in a pair chat")
    def post(self, request, game_id: int, a: int, b: int):
        game, viewer = game_for(request, game_id)
        seat_a, seat_b = chat_access(game, viewer, a, b)
        me = require_player(viewer)
        data = s.ChatMessageIn(data=request.data)
        data.is_valid(raise_exception=True)
        other = seat_b if me.pk == seat_a.pk else seat_a
        message = chat_post(game=game, author_seat=me, other_seat=other, text=data.validated_data["text"])
        return Response(chat_rows([message])[0], status=status.HTTP_201_CREATED)


class HostMuteApi(HostApi):
    @extend_schema(request=s.MuteIn, responses=s.DetailOut, summary="Mute or unmute the game's pair chats")
    def post(self, request, game_id: int):
        game, _ = self.host_game(request, game_id)
        data = s.MuteIn(data=request.data)
        data.is_valid(raise_exception=True)
        chats_mute(game=game, muted=data.validated_data["muted"], actor=request.user)
        return Response({"detail": "Chats muted." if data.validated_data["muted"] else "Chats open."})


def user_named(username: str, field: str):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        from ..kit import RulesError

        raise RulesError("No player has that username.", field=field)
    return user


def pick_out(pick) -> dict:
    # Usernames, as `opponent` is posted; the names they go by beside them.
    return {
        "candidate": pick.candidate.username,
        "candidate_name": shown_name(pick.candidate),
        "opponent": pick.opponent.username if pick.opponent else None,
        "opponent_name": shown_name(pick.opponent) if pick.opponent else None,
        "deadline": pick.deadline.isoformat(),
        "status": pick.status,
        "death_match": pick.death_match_id,
    }


class PickApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def pick_for(self, request, game_id):
        game, viewer = game_for(request, game_id)
        picks = DeathMatchPick.objects.select_related("candidate__profile", "opponent__profile")
        return get_object_or_404(picks, main_match=game), viewer

    @extend_schema(responses=s.PickOut, summary="Where the Elimination Candidate's pick stands")
    def get(self, request, game_id: int):
        pick, _ = self.pick_for(request, game_id)
        return Response(pick_out(pick))

    @extend_schema(
        request=s.PickIn,
        responses={200: s.PickOut, 409: s.DetailOut},
        summary="The Elimination Candidate picks an opponent",
    )
    def post(self, request, game_id: int):
        pick, _ = self.pick_for(request, game_id)
        data = s.PickIn(data=request.data)
        data.is_valid(raise_exception=True)
        opponent = user_named(data.validated_data["opponent"], "opponent")
        picked = season_services.pick_submit(pick=pick, user=request.user, opponent=opponent)
        return as_stored(lambda: pick_out(picked), "Your pick was stored.")


class PickOverrideApi(PickApi):
    @extend_schema(request=s.PickIn, responses=s.PickOut, summary="A host sets the Death Match opponent")
    def post(self, request, game_id: int):
        pick, _ = self.pick_for(request, game_id)
        data = s.PickIn(data=request.data)
        data.is_valid(raise_exception=True)
        opponent = user_named(data.validated_data["opponent"], "opponent")
        picked = season_services.pick_override(pick=pick, opponent=opponent, actor=request.user)
        return as_stored(lambda: pick_out(picked), "The opponent was set.")


class DeathMatchCreateApi(PickApi):
    @extend_schema(request=None, responses={201: s.PickOut}, summary="Create the Death Match from the pick")
    def post(self, request, game_id: int):
        pick, _ = self.pick_for(request, game_id)
        death_match_create(pick=pick, actor=request.user)

        def answer():
            pick.refresh_from_db()
            return pick_out(pick)

        return as_stored(answer, "The Death Match was created.", status.HTTP_201_CREATED)


class TransferApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.TransferIn, responses=s.BalanceOut, summary="Give garnets or ToLs to a player")
    def post(self, request, season_id: int):
        season = get_object_or_404(Season, pk=season_id)
        data = s.TransferIn(data=request.data)
        data.is_valid(raise_exception=True)
        receiver = user_named(data.validated_data["to"], "to")
        season_services.season_transfer(
            season=season,
            sender=request.user,
            receiver=receiver,
            what=data.validated_data["what"],
            amount=data.validated_data["amount"],
        )
        return as_stored(
            lambda: {"season": season.name, "balances": balances(season=season, user=request.user)},
            f"You gave {data.validated_data['amount']} {data.validated_data['what']}.",
        )


class GrantApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=s.GrantIn, responses=s.BalanceOut, summary="A host grants or corrects a balance")
    def post(self, request, season_id: int):
        season = get_object_or_404(Season, pk=season_id)
        data = s.GrantIn(data=request.data)
        data.is_valid(raise_exception=True)
        user = user_named(data.validated_data["username"], "username")
        what, delta = data.validated_data["what"], data.validated_data["delta"]
        season_services.season_grant(
            season=season,
            user=user,
            what=what,
            delta=delta,
            reason=data.validated_data["reason"],
            actor=request.user,
        )

        def answer():
            # The player's balances as this host may know them (without a running game's secret purchase).
            known = known_balances(season=season, viewer=request.user, users=[user])
            return {"season": season.name, "balances": {thing: n for (_, thing), n in known.items()}}

        # Said only if the balances cannot be read back: no read here, after the commit.
        done = season_services.grant_done(users=[user], what=what, delta=delta) + "."
        return as_stored(answer, done)


class InvitationApi(APIView):
    """A season's hosts list its invitations and make new ones."""

    permission_classes = [permissions.IsAuthenticated]

    def hosted_season(self, request, season_id: int) -> Season:
        season = get_object_or_404(Season, pk=season_id)
        if not season_services.is_season_host(season, request.user):
            raise NotAllowed("Only a host of this season may see and make its invitations.")
        return season

    def out(self, request, invitation):
        invitation.url = request.build_absolute_uri(reverse("join", args=[invitation.token]))
        return s.InvitationOut(invitation).data

    @extend_schema(responses=s.InvitationOut(many=True), summary="The season's invitations (hosts)")
    def get(self, request, season_id: int):
        season = self.hosted_season(request, season_id)
        return Response([self.out(request, i) for i in season.invitations.order_by("-id")])

    @extend_schema(
        request=s.InvitationIn, responses={201: s.InvitationOut}, summary="Invite players to the season"
    )
    def post(self, request, season_id: int):
        season = self.hosted_season(request, season_id)
        data = s.InvitationIn(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = invitation_create(season=season, actor=request.user, **data.validated_data)
        return Response(self.out(request, invitation), status=status.HTTP_201_CREATED)


class HostHiddenApi(HostApi):
    """The hosts' secret data (a movement table, boards, a deal): read it, and set it before the start."""

    def answer(self, game):
        kind = registry.get(game.game_type)
        return Response({"hidden": kind.hidden_data(game), "problems": kind.hidden_problems(game)})

    @extend_schema(responses=s.HiddenOut, summary="The game's hidden data and what still blocks the start")
    def get(self, request, game_id: int):
        game, _ = self.host_game(request, game_id)
        return self.answer(game)

    @extend_schema(
        request=s.HiddenIn,
        responses={200: s.HiddenOut, 409: s.DetailOut},
        summary="Set the hidden data before the start",
    )
    def post(self, request, game_id: int):
        game, _ = self.host_game(request, game_id)
        data = s.HiddenIn(data=request.data)
        data.is_valid(raise_exception=True)
        game_services.hidden_data_update(game=game, data=data.validated_data["data"], actor=request.user)
        kind = registry.get(game.game_type)
        return as_stored(
            lambda: {"hidden": kind.hidden_data(game), "problems": kind.hidden_problems(game)},
            "The hidden data was stored.",
        )
