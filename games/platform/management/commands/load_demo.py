"""Load a demo: a season with a host, ten players and a spectator, a game of every registered type, and an
open invitation to the season (printed, so a newcomer can sign up and join from it)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games.platform import registry
from games.platform.models import Season
from games.platform.services import games as game_services
from games.platform.services.invitations import invitation_create, invitation_standing
from games.platform.services.ledger import ledger_post

DEMO_SEASON = "Demo Season"


class Command(BaseCommand):
    help = "Create the demo season, its people and one running game of each type (once; prints the logins)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--window-minutes",
            type=int,
            default=10,
            help="Round windows of the demo games, so rounds close while you watch.",
        )
        parser.add_argument(
            "--base-url", default="http://127.0.0.1:8000", help="Where the site is served (for the link)."
        )

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        people = [("host", "host-demo-pass", True)] + [
            (f"player{i}", f"player{i}-pass", False) for i in range(1, 11)
        ]
        people.append(("spectator", "spectator-pass", False))
        users = {}
        for username, password, staff in people:
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(
                    username=username, password=password, email=f"{username}@example.com", is_staff=staff
                )
            users[username] = user
        season = Season.objects.filter(name=DEMO_SEASON).first()
        if season is None:
            season = Season.objects.create(name=DEMO_SEASON)
            season.hosts.add(users["host"])
            for i in range(1, 11):
                ledger_post(
                    season=season,
                    user=users[f"player{i}"],
                    what="garnets",
                    delta=10,
                    reason="demo starting garnets",
                )
            for kind in registry.all_types():
                players = [users[f"player{i}"] for i in range(1, 11)][: kind.max_players]
                if len(players) < kind.min_players:
                    continue
                game = game_services.game_create(
                    season=season,
                    game_type=kind.slug,
                    name=f"Demo {kind.name}",
                    hosts=[users["host"]],
                    settings={"window_minutes": options["window_minutes"]},
                    actor=users["host"],
                )
                for player in players:
                    game_services.game_seat(game=game, user=player, actor=users["host"])
                kind.demo_prepare(game)
                game_services.game_start(game=game, actor=users["host"])
                self.stdout.write(f"  started {game.name} (/games/{game.id}/) with {len(players)} players")
        self.stdout.write(self.style.SUCCESS("Demo logins (demo only, change them anywhere real):"))
        for username, password, staff in people:
            self.stdout.write(f"  {username:10} {password}{'   (host: /admin/)' if staff else ''}")
        invitation = next(
            (
                i
                for i in season.invitations.order_by("-id")
                if invitation_standing(i).usable and i.max_uses is None
            ),
            None,
        ) or invitation_create(season=season, actor=users["host"], hours=24 * 90, note="demo: open to anyone")
        self.stdout.write(
            self.style.SUCCESS("Invite new players (sign up and join the demo season in one step):")
        )
        self.stdout.write(f"  {options['base_url'].rstrip('/')}/join/{invitation.token}/")
