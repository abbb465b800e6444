"""The application: routes under /v1, authentication and rate limiting in one middleware."""
import hmac
import logging
from email.utils import formatdate
from typing import List, Optional

from fastapi import APIRouter, FastAPI, HTTPException, Path, Query, Request, Response, status
from fastapi.security.utils import get_authorization_scheme_param

from . import errors
from .models import NewPet, Pet, PetStatus
from .ratelimit import RateLimiter
from .settings import ANONYMOUS, Plan, Settings
from .store import PetStore

log = logging.getLogger("animal_store")

# RFC 9745 / RFC 8594: deprecated since this service's 1.0.0 (an @epoch date), removed on 5 December 2030.
DEPRECATION = {
    "Deprecation": "@1735689600",
    "Sunset": "Thu, 05 Dec 2030 00:00:00 GMT",
    "Link": '</v1/pets>; rel="successor-version"',
}


def create_app(settings: Settings) -> FastAPI:
    app = FastAPI(title="Animal Store Service", version="1.0.0", docs_url=None, redoc_url=None, openapi_url="/v1/openapi.json")
    store = PetStore()
    limiter = RateLimiter(settings.window_ms, settings.day_ms)
    plans = settings.plans_by_key()
    errors.install(app)

    def plan_of(authorization: Optional[str]) -> Optional[Plan]:
        """The plan of a valid "Bearer <key>" (the scheme is case-insensitive, RFC 9110 §11.1)."""
        scheme, token = get_authorization_scheme_param(authorization)
        if scheme.lower() != "bearer" or not token:
            return None
        for key, plan in plans.items():
            if hmac.compare_digest(key.encode(), token.encode()):
                return plan
        return None

    @app.middleware("http")
    async def authenticate_and_limit(request: Request, call_next) -> Response:
        # Here rather than in a dependency: FastAPI parses the body (and may answer 422) before any dependency
        # runs, and 404/405 never reach one; the spec wants 401 first and the headers on every response.
        authorization = request.headers.get("authorization")
        plan = plan_of(authorization)
        # Limits count per key (one per plan here), and per client address for requests without a valid key.
        who = f"plan:{plan.name}" if plan else f"addr:{request.client.host if request.client else '-'}"
        quota = limiter.hit(who, plan or ANONYMOUS)
        if not quota.allowed:
            response = errors.error_response(429, f"rate limit exceeded; retry after {quota.retry_after} s")
        elif plan is None:
            response = errors.error_response(401, "a valid API key is required as a Bearer token")
            response.headers["WWW-Authenticate"] = "Bearer"
        else:
            try:
                response = await call_next(request)
            except Exception:  # the client gets an Error body, the log the traceback
                log.exception("unhandled error")
                response = errors.error_response(500, "internal error")
        response.headers.update(quota.headers())
        # uvicorn 0.17 freezes Date for the life of a keep-alive connection (uvicorn#1618): serve.py turns it off.
        response.headers["Date"] = formatdate(usegmt=True)
        return response

    v1 = APIRouter(prefix="/v1")

    @v1.get("/pets", response_model=List[Pet], response_model_exclude_none=True)
    async def list_pets(
        limit: int = Query(20, ge=1, le=100), status_: Optional[PetStatus] = Query(None, alias="status")
    ) -> List[Pet]:
        return store.page(limit, status_)

    @v1.post("/pets", response_model=Pet, response_model_exclude_none=True, status_code=status.HTTP_201_CREATED)
    async def create_pet(pet: NewPet) -> Pet:
        return store.add(pet)

    @v1.get("/pets/{pet_id}", response_model=Pet, response_model_exclude_none=True, deprecated=True)
    async def get_pet(response: Response, pet_id: str = Path(regex=r"^-?[0-9]+$")) -> Pet:
        # A str with ASCII digits: an int parameter would take any Unicode digits (Python's int("٧") is 7).
        pet = store.get(int(pet_id))
        if pet is None:
            raise HTTPException(404, f"no pet with id {pet_id}", headers=DEPRECATION)
        response.headers.update(DEPRECATION)
        return pet

    app.include_router(v1)
    return app
