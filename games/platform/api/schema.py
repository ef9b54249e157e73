"""The OpenAPI schema says what goes wrong too: every operation documents the platform's JSON errors."""

from __future__ import annotations

ERRORS = {
    "400": "Invalid input: `detail` in words, `errors` per field.",
    "403": "Not yours to do (a player acting for another, a non-host on a host route, not logged in).",
    "404": "Not there, or not visible to you.",
    "409": (
        "The round closed or the state moved on (`closed_at`: the round's deadline, when it closed; "
        "`resolution`: what a host's 'resolve now' did instead of resolving)."
    ),
}
# Only where a request may carry a body (POST, PUT, PATCH): one the API cannot read (send JSON).
BODY_ERRORS = {"415": "The body's content type is not one the API reads (send application/json)."}


def document_errors(result, generator, request, public):
    """drf-spectacular postprocessing hook: add the error answers and their shape to every operation."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = {
        "type": "object",
        "properties": {
            "detail": {"type": "string"},
            "errors": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
            },
            "closed_at": {"type": "string", "nullable": True},
            "resolution": {
                "type": "string",
                "enum": ["already resolved", "not due", "paused", "not running", "waiting", "failed", "busy"],
            },
        },
        "required": ["detail"],
    }
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            responses = operation.setdefault("responses", {})
            errors = {**ERRORS, **BODY_ERRORS} if method in ("post", "put", "patch") else ERRORS
            for code, description in errors.items():
                responses.setdefault(code, {"description": description, "content": error})
    return result
