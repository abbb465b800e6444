"""
Every error answered with the spec's Error body ({"code", "message", "status"}), replacing
FastAPI's {"detail": ...} bodies and its 422 for a request that fails validation.
"""
from http import HTTPStatus
from typing import Dict, Optional

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

CODES = {
    400: "invalid_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    429: "rate_limited",
    500: "internal_error",
}


def error_response(status: int, message: str, headers: Optional[Dict[str, str]] = None) -> JSONResponse:
    code = CODES.get(status) or HTTPStatus(status).phrase.lower().replace(" ", "_")
    return JSONResponse({"code": code, "message": message, "status": status}, status_code=status, headers=headers)


def _describe(exc: RequestValidationError) -> str:
    parts = []
    for e in exc.errors():
        where = ".".join(str(x) for x in e["loc"])
        parts.append(f"{where}: {e['msg']}")
    return "; ".join(parts)


def install(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def invalid_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        # The spec: "400 | Request body missing required fields or containing invalid values."
        return error_response(400, _describe(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return error_response(exc.status_code, str(exc.detail), getattr(exc, "headers", None))
