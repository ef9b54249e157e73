"""Arms Race's Django app: registers the game type with the platform when the site starts."""

from django.apps import AppConfig


class ArmsRaceConfig(AppConfig):
    name = "games.arms_race"
    label = "arms_race"
    verbose_name = "Arms Race"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games.platform import registry

        from .game import ArmsRace

        registry.register(ArmsRace())
