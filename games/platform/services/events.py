"""Turning a rules outcome into rows: announcements, inbox reveals and ledger entries, in one go."""

from __future__ import annotations

from django.db import models, transaction
from django.db.models import F
from django.db.models.signals import m2m_changed
from django.dispatch import receiver

from .. import enqueue, pagecache, versions
from ..kit import Announce, Ledger, Reveal
from ..models import Event, Game, Webhook
from ..wording import seats_as_users, typed
from .ledger import ledger_post_many


def bump_version(game: Game) -> None:
    """Anything a viewer could see changed: the next feed poll must not answer 'nothing new'."""
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
    versions.game_moved(game.pk)


@receiver(m2m_changed, sender=Game.hosts.through, dispatch_uid="game-hosts-changed")
def hosts_changed(sender, instance, action, reverse, pk_set, **kwargs) -> None:
    """Who hosts a game changed, by any path (the admin, a service, a script, either side of the relation):
    every viewer's role in it may have changed, and the page cache remembers roles per version."""
    if reverse and action == "pre_clear":  # a user's hosting is cleared: which games is known only before
        games = list(instance.hosted_games.values_list("pk", flat=True))
    elif reverse and action in {"post_add", "post_remove"}:
        games = list(pk_set)
    elif not reverse and action in {"post_add", "post_remove", "post_clear"}:
        games = [instance.pk]
    else:
        return
    Game.objects.filter(pk__in=games).update(version=F("version") + 1)
    for game_id in games:
        versions.game_moved(game_id)


@transaction.atomic
def events_write(
    *, game: Game, events, round_number: int | None = None, actor=None, public: bool = True
) -> list[Event]:
    """Write a rules outcome's events. `public=False`: nothing in it is for spectators (reveals and ledger
    moves only, the rules state unchanged): the public version stays, and only the seats concerned (and
    the actor, and the hosts) see their pages move (issue 17.7)."""
    seats = {seat.number: seat for seat in game.seats.select_related("user")}
    # The rules name players by seat ({seat:3}); the rows keep who that is, named when someone reads them.
    users_by_seat = {number: seat.user_id for number, seat in seats.items()}
    rows: list[Event] = []
    postings = []
    for event in events:
        if isinstance(event, Announce):
            rows.append(
                Event(
                    game=game,
                    kind=Event.Kind.ANNOUNCEMENT,
                    round_number=round_number,
                    text=seats_as_users(event.text, users_by_seat),
                    data=event.data,
                    author=actor,
                )
            )
        elif isinstance(event, Reveal):
            rows.append(
                Event(
                    game=game,
                    kind=Event.Kind.REVEAL,
                    seat=seats[event.seat],
                    round_number=round_number,
                    text=seats_as_users(event.text, users_by_seat),
                    data=event.data,
                    author=actor,
                )
            )
        elif isinstance(event, Ledger):
            user = seats[event.seat].user
            reason = seats_as_users(event.reason, users_by_seat)
            postings.append((user, event.what, event.delta, reason, event.item))
        else:
            raise TypeError(f"Unknown event {event!r}")
    ledger_post_many(season=game.season, game=game, postings=postings, round_number=round_number, actor=actor)
    created = Event.objects.bulk_create(rows)
    if public:
        bump_version(game)
    else:
        concerned = {seats[e.seat].user_id for e in events if isinstance(e, Reveal | Ledger)}
        pagecache.private_changed(game.pk, concerned | ({actor.pk} if actor is not None else set()))
    announce_outward([e for e in created if e.kind == Event.Kind.ANNOUNCEMENT])
    return created


@transaction.atomic
def announcement_post(*, game: Game, text: str, category: str = Event.Category.GENERAL, actor=None) -> Event:
    """A host's public post: a clarification, addendum, erratum or general announcement."""
    current = game.rounds.order_by("-number").values_list("number", flat=True).first()
    event = Event.objects.create(
        game=game,
        kind=Event.Kind.ANNOUNCEMENT,
        category=category,
        text=typed(text),
        round_number=current,
        author=actor,
    )
    bump_version(game)
    announce_outward([event])
    return event


def announce_outward(events: list[Event]) -> None:
    """Queue each public announcement for its game's and season's webhooks, once the transaction commits."""
    if not events:
        return
    game = events[0].game
    hooks = list(
        Webhook.objects.filter(active=True)
        .filter(models.Q(game=game) | models.Q(season_id=game.season_id, game__isnull=True))
        .values_list("id", flat=True)
    )
    if not hooks:
        return
    enqueue.deliver_webhooks(hooks, [e.id for e in events])
