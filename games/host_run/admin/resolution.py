"""The hosts' resolve page of a host-run game: every seat's latest submission of the round, then one form
with the public results, each seat's private result, points and new private values, and (at the end) the
ranking, winners, Tokens of Life, garnets and the Elimination Candidate or the loser.

"Save draft" keeps the resolution unsent (any host of the game finds it again here); "Resolve" sends it and
resolves the round through the platform's `round_resolve` in one transaction: if the round does not
resolve, nothing is sent and the page says why. Before the round's deadline, Resolve asks first with the
console's own question ("Close Round 3 now, 41 h early? 5 players have not submitted.").

URL: admin/host_run/resolution/resolve/<game id>/ (only the game's hosts and superusers; others get 404).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse

from games.platform.admin.confirm import question
from games.platform.admin.console import when
from games.platform.admin.scoping import HostScoped
from games.platform.kit import RulesError
from games.platform.models import Game, Round
from games.platform.people import shown_name
from games.platform.services import absence, rounds
from games.platform.services.audit import audit
from genius.clock import site_now

from ..models import Resolution, SeatResult
from ..rules import apply_resolution, round_fields, round_title
from ..rules.fields import answer_words, keyed
from ..store import load

TYPES = ("host_run", "host_run_death")
END_FIELDS = ("rank", "winner", "tokens_of_life", "garnets")


def _name(seat_number: int) -> str:
    return f"s{seat_number}"


class ResolveForm(forms.Form):
    """The one form: public results, the board, each seat's part, and the end. `sending`: Resolve was
    pressed, so the end's choices are required; a draft is kept with whatever it holds."""

    public_text = forms.CharField(
        required=False,
        label="The public results (the announcement)",
        help_text="Markdown. Everyone sees it, players and spectators.",
        widget=forms.Textarea(attrs={"rows": 6, "cols": 80}),
    )
    board = forms.CharField(
        required=False,
        label="The public board after this round",
        help_text="Markdown; tables allowed. It replaces the board everyone sees.",
        widget=forms.Textarea(attrs={"rows": 6, "cols": 80}),
    )
    ends_game = forms.BooleanField(required=False, label="This ends the game")
    candidate = forms.TypedChoiceField(required=False, coerce=int, empty_value=None)
    tie_note = forms.CharField(
        required=False,
        max_length=200,
        label="How the tie for last was decided",
        help_text="Shown in the final announcement.",
    )

    def __init__(self, *args, seats, columns, scores, last_round: bool, death: bool, sending=False, **kw):
        super().__init__(*args, **kw)
        self.seats = seats  # [(number, name)]
        self.columns = columns
        self.scores = scores  # {seat number: points before this round}
        self.last_round = last_round
        self.death = death
        self.sending = sending
        self.fields["candidate"].label = "The loser" if death else "The Elimination Candidate"
        self.fields["candidate"].choices = [("", "—")] + [(str(n), name) for n, name in seats]
        if last_round:
            self.fields["ends_game"].disabled = True
            self.fields["ends_game"].initial = True
            self.fields["ends_game"].help_text = "This is the game's last round: it ends with it."
        else:
            self.fields["ends_game"].help_text = "Tick to end the game with this round."
        for number, name in seats:
            s = _name(number)
            self.fields[f"{s}_points"] = forms.IntegerField(
                label=f"Points this round ({name})", initial=0, help_text="May be negative."
            )
            for i, column in enumerate(columns):
                self.fields[f"{s}_col{i}"] = forms.CharField(
                    required=False,
                    label=f"{column} ({name})",
                    widget=forms.Textarea(attrs={"rows": 1, "cols": 16}),
                    strip=False,
                )
            self.fields[f"{s}_private_text"] = forms.CharField(
                required=False,
                label=f"Private result for {name} (their inbox)",
                widget=forms.Textarea(attrs={"rows": 2, "cols": 36}),
            )
            self.fields[f"{s}_rank"] = forms.IntegerField(required=False, min_value=1, label=f"Rank ({name})")
            self.fields[f"{s}_winner"] = forms.BooleanField(required=False, label=f"{name} wins")
            self.fields[f"{s}_tokens_of_life"] = forms.IntegerField(
                min_value=0, initial=0, label=f"Tokens of Life to give {name}"
            )
            self.fields[f"{s}_garnets"] = forms.IntegerField(
                min_value=0, initial=0, label=f"Garnets to give {name}"
            )

        for key, field in self.fields.items():
            if key.startswith("s") and "_" in key and key.split("_")[0][1:].isdigit():
                field.widget.attrs["aria-label"] = field.label  # a cell of the table: its own name

    def _points_now(self) -> dict[int, int]:
        """Each seat's points after this round, as typed so far (the bound data, else the initial)."""
        totals = {}
        for number, _ in self.seats:
            key = f"{_name(number)}_points"
            raw = self.data.get(key) if self.is_bound else self.initial.get(key)
            try:
                delta = int(raw or 0)
            except (TypeError, ValueError):
                delta = 0
            totals[number] = int(self.scores.get(number, 0)) + delta
        return totals

    def tied_last(self) -> tuple[list[str], int] | None:
        """(the names tied for last place, their points) after this round, or None if last is one seat."""
        if len(self.seats) < 2:
            return None
        totals = self._points_now()
        low = min(totals.values())
        tied = [name for number, name in self.seats if totals[number] == low]
        return (tied, low) if len(tied) > 1 else None

    def tie_words(self) -> str:
        tie = self.tied_last()
        if tie is None:
            return ""
        names, points = tie
        who = ", ".join(names[:-1]) + " and " + names[-1]
        both = "both tie" if len(names) == 2 else "tie"
        choose = "the loser" if self.death else "the Elimination Candidate"
        return f"{who} {both} for last with {points} point{'s' * (points != 1)}: choose {choose}."

    def clean(self):
        data = super().clean()
        if self.last_round:
            data["ends_game"] = True
        if self.sending and data.get("ends_game"):
            if data.get("candidate") is None:
                who = "loser" if self.death else "Elimination Candidate"
                self.add_error("candidate", f"Choose the {who}: the game ends with this round.")
            if self.tied_last() is not None and not (data.get("tie_note") or "").strip():
                self.add_error(
                    "tie_note", f"{self.tie_words()} Say how the tie was decided (it is announced)."
                )
        return data

    def seat_rows(self) -> list[dict]:
        rows = []
        for number, name in self.seats:
            s = _name(number)
            rows.append(
                {
                    "number": number + 1,
                    "name": name,
                    "score": self.scores.get(number, 0),
                    "points": self[f"{s}_points"],
                    "values": [self[f"{s}_col{i}"] for i in range(len(self.columns))],
                    "private_text": self[f"{s}_private_text"],
                    **{what: self[f"{s}_{what}"] for what in END_FIELDS},
                }
            )
        return rows


def form_initial(resolution: Resolution | None, state: dict, seats, columns) -> dict:
    """The draft as it was saved, or the round's starting point: the current board and private values."""
    if resolution is None:
        initial = {"board": state.get("board") or "", "ends_game": False}
        for number, _ in seats:
            values = (state.get("private") or {}).get(str(number)) or {}
            for i, column in enumerate(columns):
                initial[f"{_name(number)}_col{i}"] = values.get(column, "")
        return initial
    initial = {
        "public_text": resolution.public_text,
        "board": resolution.board,
        "ends_game": resolution.ends_game,
        "candidate": str(resolution.candidate.number) if resolution.candidate_id else "",
        "tie_note": resolution.tie_note,
    }
    parts = {r.seat.number: r for r in resolution.seat_results.select_related("seat")}
    for number, _ in seats:
        s = _name(number)
        part = parts.get(number)
        values = (state.get("private") or {}).get(str(number)) or {}
        if part is not None:
            values = {**values, **(part.private_values or {})}
            initial.update(
                {
                    f"{s}_points": part.points,
                    f"{s}_private_text": part.private_text,
                    f"{s}_rank": part.rank,
                    f"{s}_winner": part.winner,
                    f"{s}_tokens_of_life": part.tokens_of_life,
                    f"{s}_garnets": part.garnets,
                }
            )
        for i, column in enumerate(columns):
            initial[f"{s}_col{i}"] = values.get(column, "")
    return initial


@transaction.atomic
def draft_save(*, game: Game, number: int, form: ResolveForm, seat_rows, user) -> Resolution:
    """The form's content as the round's (unsent) resolution: one row, and one row per seat."""
    data = form.cleaned_data
    by_number = {seat.number: seat for seat in seat_rows}
    resolution, _ = Resolution.objects.select_for_update().get_or_create(game=game, round_number=number)
    if resolution.sent_at is not None:
        raise RulesError(f"The results of Round {number} were already sent.", field="public_text")
    ending = bool(data.get("ends_game"))
    resolution.public_text = data.get("public_text") or ""
    resolution.board = data.get("board") or ""
    resolution.ends_game = ending
    candidate = data.get("candidate")
    resolution.candidate = by_number.get(candidate) if candidate is not None else None
    resolution.tie_note = data.get("tie_note") or ""
    resolution.updated_by = user
    resolution.save()
    for seat_number, seat in by_number.items():
        s = _name(seat_number)
        SeatResult.objects.update_or_create(
            resolution=resolution,
            seat=seat,
            defaults={
                "private_text": data.get(f"{s}_private_text") or "",
                "points": data.get(f"{s}_points") or 0,
                "private_values": {c: data.get(f"{s}_col{i}") or "" for i, c in enumerate(form.columns)},
                "rank": data.get(f"{s}_rank"),
                "winner": bool(data.get(f"{s}_winner")),
                "tokens_of_life": data.get(f"{s}_tokens_of_life") or 0,
                "garnets": data.get(f"{s}_garnets") or 0,
            },
        )
    return resolution


class NotSent(Exception):
    """The round did not resolve: roll the sending back, and say why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _why_not(result, rnd: Round) -> str:
    """Why the round did not resolve, in the words of the console's Resolve now (one wording for both)."""
    return f"Nothing was sent: {rounds.not_resolved_because(result, rnd)} Your draft is saved."


def send(*, game: Game, rnd: Round, resolution: Resolution, user) -> None:
    """Resolution sent and round resolved, both or neither (NotSent says why)."""
    with transaction.atomic():
        Resolution.objects.filter(pk=resolution.pk).update(sent_at=site_now(), updated_by=user)
        result = rounds.round_resolve(round_id=rnd.pk, early=True, actor=user)
        if not result:
            rnd.refresh_from_db()
            raise NotSent(_why_not(result, rnd))  # rolls the sending back
        audit(action="resolution_send", actor=user, game=game, round=rnd.number)


def after_words(game: Game, number: int) -> str:
    """What the console says once the round resolved."""
    game.refresh_from_db()
    done = f"Round {number} resolved"
    final = (game.state or {}).get("final")
    if game.status == Game.Status.FINISHED or final is not None:
        candidate = (final or {}).get("candidate")
        if candidate is None:
            return f"{done}: the game is over."
        seat = game.seats.select_related("user__profile").get(number=candidate)
        who = "the loser" if game.game_type == "host_run_death" else "the Elimination Candidate"
        return f"{done}: the game is over: {shown_name(seat.user)} is {who}."
    nxt = game.rounds.filter(number=number + 1).first()
    if nxt is not None:
        until = when(nxt.closes_at)
        return f"{done}: the results are announced and Round {nxt.number} is open until {until}."
    return f"{done}: the results are announced; Round {number + 1} opens when a host opens it."


@admin.register(Resolution)
class ResolutionAdmin(HostScoped, admin.ModelAdmin):
    """The resolutions of the games a host hosts (sent or drafts), and the resolve page."""

    list_display = ("game", "round_number", "sent_at", "updated_at", "updated_by")

    def has_change_permission(self, request, obj=None):
        return False  # written on the resolve page only

    def get_urls(self):
        own = [
            path(
                "resolve/<int:game_id>/",
                self.admin_site.admin_view(self.resolve_view),
                name="host_run_resolution_resolve",
            )
        ]
        return own + super().get_urls()

    def _game(self, request, game_id: int) -> Game:
        games = Game.objects.filter(pk=game_id, game_type__in=TYPES)
        if not request.user.is_superuser:
            games = games.filter(hosts=request.user)
        game = games.first()
        if game is None:
            raise Http404("No such host-run game, or not one you host.")
        return game

    def resolve_view(self, request, game_id: int):
        game = self._game(request, game_id)
        console = reverse("admin:platform_game_change", args=[game.pk]) + "#console"
        rnd = game.rounds.filter(status=Round.Status.OPEN).order_by("-number").first()
        if game.status != Game.Status.RUNNING or rnd is None or not game.state:
            messages.info(request, "No round waits for results: nothing to resolve now.")
            return HttpResponseRedirect(console)
        state = load(game)
        seats = list(game.seats.select_related("user__profile").order_by("number"))
        names = {seat.number: shown_name(seat.user) for seat in seats}
        columns = list(state.get("columns") or [])
        scores = {int(s): p for s, p in (state.get("scores") or {}).items()}
        last_round = state.get("rounds") is not None and rnd.number >= state["rounds"]
        draft = Resolution.objects.filter(game=game, round_number=rnd.number).first()
        options = {
            "seats": [(seat.number, names[seat.number]) for seat in seats],
            "columns": columns,
            "scores": scores,
            "last_round": last_round,
            "death": game.game_type == "host_run_death",
        }
        asked = ""
        if request.method == "POST":
            doing = request.POST.get("do")
            sending = doing in ("resolve", "resolve_confirmed")
            form = ResolveForm(request.POST, sending=sending, **options)
            if form.is_valid():
                try:
                    resolution = draft_save(
                        game=game, number=rnd.number, form=form, seat_rows=seats, user=request.user
                    )
                    if not sending:
                        messages.success(
                            request,
                            f"Draft saved: the results of Round {rnd.number} are kept here, unsent; "
                            "players see nothing of them.",
                        )
                        return HttpResponseRedirect(request.path)
                    # What the rules would say of it, before the round is touched: errors by their fields.
                    apply_resolution(state, resolution.as_rules_data())
                    asked = "" if doing == "resolve_confirmed" else question(game, "resolve")
                    if not asked:
                        send(game=game, rnd=rnd, resolution=resolution, user=request.user)
                        messages.success(request, after_words(game, rnd.number))
                        return HttpResponseRedirect(console)
                except NotSent as exc:
                    form.add_error(None, exc.message)
                except RulesError as exc:
                    field = exc.field if exc.field in form.fields else None
                    form.add_error(field, f"{exc.message} Your draft is saved.")
        else:
            form = ResolveForm(initial=form_initial(draft, state, options["seats"], columns), **options)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"{game.name}: the results of Round {rnd.number}",
            "game": game,
            "round": rnd,
            "round_title": round_title(state, rnd.number),
            "round_words": _round_words(rnd),
            "draft": draft,
            "form": form,
            "asked": asked,
            "console": console,
            "questions": keyed(round_fields(state, rnd.number)),
            "submissions": _submissions(game, rnd, seats, names, state),
            "last_round": last_round,
            "death": options["death"],
        }
        return TemplateResponse(request, "host_run/admin/resolve.html", context)


def _round_words(rnd: Round) -> str:
    if rnd.remaining_when_paused is not None:
        return f"Round {rnd.number} is open; the game is paused."
    if rnd.closes_at <= site_now():
        return f"Round {rnd.number} closed {when(rnd.closes_at)} and waits for your results."
    return (
        f"Round {rnd.number} is open until {when(rnd.closes_at)}: you may prepare a draft; "
        "Resolve now closes it early."
    )


def _submissions(game: Game, rnd: Round, seats, names, state) -> list[dict]:
    """Each seat's latest save of the round, answer by answer (or why there is none)."""
    fields = keyed(round_fields(state, rnd.number))
    latest = rounds.latest_submissions(rnd)
    excused = absence.excused_seats(rnd)
    rows = []
    for seat in seats:
        saved = latest.get(seat.number)
        row = {"number": seat.number + 1, "player": names[seat.number], "answers": []}
        if saved is None:
            row["status"] = "excused" if seat.number in excused else "not submitted"
        else:
            row["status"] = "final" if saved.final else "saved, not final"
            row["at"] = when(saved.created_at)
            row["answers"] = [
                answer_words(f, (saved.payload or {}).get(f["key"]), names, full=True) for f in fields
            ]
        rows.append(row)
    return rows
