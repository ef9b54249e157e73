"""Page routes."""

from django.urls import path

from . import (
    account_views,
    first_run,
    guides,
    paths,  # noqa: F401  (registers the `id` converter)
    presence_views,
    push_views,
    stream,
    views,
)

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz/", views.healthz, name="healthz"),
    path("events/", stream.events, name="events"),
    path("first-run/", first_run.first_run, name="first-run"),
    path("rules/", guides.rules_index, name="rules-index"),
    path("rules/<slug:slug>/", guides.rules_page, name="rules"),
    path("games/<id:game_id>/", views.game_page, name="game"),
    path("games/<id:game_id>/rules/", guides.game_rules_page, name="game-rules"),
    path("games/<id:game_id>/live/", views.game_feed, name="game-feed"),
    path("games/<id:game_id>/presence/", presence_views.game_presence, name="game-presence"),
    path("games/<id:game_id>/history/", views.game_history, name="game-history"),
    path("games/<id:game_id>/export.json", views.game_export, name="game-export"),
    path("games/<id:game_id>/chats/", views.chat_list, name="chat-list"),
    path("games/<id:game_id>/chats/<id:a>-<id:b>/", views.chat_page, name="chat"),
    path("account/", account_views.profile, name="profile"),
    path("account/zone/", account_views.zone_detected, name="zone-detected"),
    path("join/<str:token>/", account_views.join, name="join"),
    path("account/push/", push_views.subscribe, name="push-subscribe"),
    path("account/push/unsubscribe/", push_views.unsubscribe, name="push-unsubscribe"),
    path("account/push/renew/", push_views.renew, name="push-renew"),
    path("account/push/<id:device_id>/remove/", push_views.remove, name="push-remove"),
    path("account/push/<id:device_id>/test/", push_views.test, name="push-test"),
    path("sw.js", push_views.service_worker, name="service-worker"),
    path("manifest.webmanifest", push_views.manifest, name="manifest"),
    path("account/notifications/", views.notification_settings, name="notification-settings"),
    path("account/notifications/test/", views.notification_test, name="notification-test"),
    path("games/<id:game_id>/pick/", views.death_match_pick, name="death-match-pick"),
    path("seasons/<id:season_id>/", views.season_page, name="season"),
    path("seasons/<id:season_id>/transfer/", views.season_transfer_view, name="season-transfer"),
    path("seasons/<id:season_id>/ledger/", views.my_ledger, name="my-ledger"),
]
