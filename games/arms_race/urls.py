"""Arms Race's own route (mounted under /arms-race/): the move form's target."""

from django.urls import path

from . import views

app_name = "arms_race"
urlpatterns = [
    path("games/<int:game_id>/move/", views.move, name="move"),
]
