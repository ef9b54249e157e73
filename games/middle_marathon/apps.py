"""Middle Marathon's Django app: registers the game type with the platform when the site starts."""

from django.apps import AppConfig


class MiddleMarathonConfig(AppConfig):
    name = "games.middle_marathon"
    label = "middle_marathon"
    verbose_name = "Middle Marathon"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games.platform import registry

        from .game import MiddleMarathon

        registry.register(MiddleMarathon())
