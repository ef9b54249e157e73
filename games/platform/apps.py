"""The platform app: seasons, games, seats, rounds, clocks, submissions, events, ledgers, the registry."""

from django.apps import AppConfig


class PlatformConfig(AppConfig):
    name = "games.platform"
    label = "platform"
    verbose_name = "Genius platform"

    def ready(self):
        # The tasks join the Celery app's registry, where `enqueue` finds them by name (services queue work
        # without importing the tasks, which import the services).
        # Game types that live outside the game apps (the tests' toy games, a community's own) are named
        # in GENIUS_GAME_MODULES; each such module has a register() that adds its types to the registry.
        from importlib import import_module

        from django.conf import settings

        from . import accounts, addresses, discord_join, people, signup, tasks  # noqa: F401

        accounts.connect()
        addresses.connect()
        people.connect()
        signup.connect()
        discord_join.connect()

        for name in getattr(settings, "GENIUS_GAME_MODULES", []):
            import_module(name).register()
