"""Load a demo: a season with a host, ten players and a spectator, a game of every registered type, and an
open invitation to the season (printed, so a newcomer can sign up and join from it)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games.platform import registry
from games.platform.demo import DEMO_PEOPLE, DEMO_SEASON, greeting
from games.platform.models import Season
from games.platform.services import games as game_services
from games.platform.services.host_role import make_host
from games.platform.services.ledger import ledger_post


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
        parser.add_argument(
            "--quiet",
            action="store_true",
            help="One line, no logins (make run: serve_all --demo prints them last, once the site answers).",
        )

    @transaction.atomic
    def handle(self, *args, **options):
        User = get_user_model()
        users = {}
        for username, password, staff in DEMO_PEOPLE:
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(
                    username=username, password=password, email=f"{username}@example.com", is_staff=staff
                )
            if staff:
                make_host(user)  # in Hosts: the demo's host may make a season of their own
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
                if not options["quiet"]:
                    self.stdout.write(
                        f"  started {game.name} (/games/{game.id}/) with {len(players)} players"
                    )
        if options["quiet"]:
            self.stdout.write(f"The demo season is ready: {season.games.count()} games.")
            return
        for line in greeting(season, users["host"], options["base_url"]):
            self.stdout.write(line)
