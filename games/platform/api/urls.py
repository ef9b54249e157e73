"""API routes under /api/."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from .. import paths  # noqa: F401  (registers the `id` converter)
from . import views

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file of its own: the CSP allows no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("token/", views.TokenApi.as_view(), name="api-token"),
    path("me/awaiting/", views.AwaitingApi.as_view(), name="api-awaiting"),
    path("me/balances/", views.MyBalancesApi.as_view(), name="api-balances"),
    path("games/", views.GameListApi.as_view(), name="api-games"),
    path("games/<id:game_id>/", views.GameDetailApi.as_view(), name="api-game"),
    path("games/<id:game_id>/feed/", views.FeedApi.as_view(), name="api-feed"),
    path("games/<id:game_id>/round-form/", views.RoundFormApi.as_view(), name="api-round-form"),
    path("games/<id:game_id>/submission/", views.SubmissionApi.as_view(), name="api-submission"),
    path("games/<id:game_id>/action/", views.ActionApi.as_view(), name="api-action"),
    path("games/<id:game_id>/here/", views.HereApi.as_view(), name="api-here"),
    path("games/<id:game_id>/ops/<slug:name>/", views.OperationApi.as_view(), name="api-operation"),
    path("games/<id:game_id>/chats/<id:a>-<id:b>/", views.ChatApi.as_view(), name="api-chat"),
    path("games/<id:game_id>/pick/", views.PickApi.as_view(), name="api-pick"),
    path("games/<id:game_id>/pick/override/", views.PickOverrideApi.as_view(), name="api-pick-override"),
    path("games/<id:game_id>/pick/death-match/", views.DeathMatchCreateApi.as_view(), name="api-death-match"),
    path("seasons/<id:season_id>/transfer/", views.TransferApi.as_view(), name="api-transfer"),
    path("seasons/<id:season_id>/grant/", views.GrantApi.as_view(), name="api-grant"),
    path("seasons/<id:season_id>/invitations/", views.InvitationApi.as_view(), name="api-invitations"),
    path("games/<id:game_id>/host/hidden/", views.HostHiddenApi.as_view(), name="api-host-hidden"),
    path("games/<id:game_id>/host/mute/", views.HostMuteApi.as_view(), name="api-host-mute"),
    path("games/<id:game_id>/host/announce/", views.HostAnnounceApi.as_view(), name="api-host-announce"),
    path("games/<id:game_id>/host/extend/", views.HostExtendApi.as_view(), name="api-host-extend"),
    path("games/<id:game_id>/host/pause/", views.HostPauseApi.as_view(), name="api-host-pause"),
    path("games/<id:game_id>/host/resume/", views.HostResumeApi.as_view(), name="api-host-resume"),
    path("games/<id:game_id>/host/resolve/", views.HostResolveApi.as_view(), name="api-host-resolve"),
    path("games/<id:game_id>/host/open-round/", views.HostOpenRoundApi.as_view(), name="api-host-open-round"),
    path("games/<id:game_id>/host/retry/", views.HostRetryApi.as_view(), name="api-host-retry"),
    path("games/<id:game_id>/host/start/", views.HostStartApi.as_view(), name="api-host-start"),
    path("games/<id:game_id>/host/seat/", views.HostSeatApi.as_view(), name="api-host-seat"),
    path("games/<id:game_id>/host/replace/", views.HostReplaceApi.as_view(), name="api-host-replace"),
    path("games/<id:game_id>/host/excuse/", views.HostExcuseApi.as_view(), name="api-host-excuse"),
]
