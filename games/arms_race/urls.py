"""Arms Race's own route (mounted under /arms-race/): the move form's target."""

from django.urls import path

from games.platform import paths  # noqa: F401  (registers the `id` converter)

from . import views

app_name = "arms_race"
urlpatterns = [
    path("games/<id:game_id>/move/", views.move, name="move"),
]
