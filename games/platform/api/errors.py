"""JSON errors with per-field messages and the right status codes."""

from __future__ import annotations

from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from ..errors import Busy, NotAllowed, NotResolved, RoundClosed, StateChanged
from ..kit import RulesError


def exception_handler(exc, context):
    if isinstance(exc, RulesError):
        field = exc.field or "non_field_errors"
        return Response(
            {"detail": exc.message, "errors": {field: [exc.message]}}, status=status.HTTP_400_BAD_REQUEST
        )
    if isinstance(exc, RoundClosed):
        closed = exc.closed_at.isoformat() if exc.closed_at else None
        return Response({"detail": exc.message, "closed_at": closed}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, NotResolved):  # "resolve now" says what happened instead
        return Response({"detail": exc.message, "resolution": exc.outcome}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, Busy):  # nothing was kept: the same request may be sent again in a moment
        headers = {"Retry-After": str(exc.retry_after)}
        return Response({"detail": exc.message}, status=status.HTTP_409_CONFLICT, headers=headers)
    if isinstance(exc, StateChanged):
        return Response({"detail": exc.message}, status=status.HTTP_409_CONFLICT)
    if isinstance(exc, NotAllowed):
        return Response({"detail": exc.message}, status=status.HTTP_403_FORBIDDEN)
    response = drf_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" not in response.data:
        response.data = {"detail": "Some fields need another look.", "errors": response.data}
    return response
