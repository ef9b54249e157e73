"""The Horse Race app: registers Blackout Middle Horse Race with the platform."""

from django.apps import AppConfig


class HorseRaceConfig(AppConfig):
    name = "games.horse_race"
    label = "horse_race"
    verbose_name = "Blackout Middle Horse Race"

    def ready(self):
        from games.platform import registry

        from .game import HorseRace

        registry.register(HorseRace())
