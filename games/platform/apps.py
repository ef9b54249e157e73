"""The platform app: seasons, games, seats, rounds, clocks, submissions, events, ledgers, the registry."""

from django.apps import AppConfig


class PlatformConfig(AppConfig):
    name = "games.platform"
    label = "platform"
    verbose_name = "Genius platform"
