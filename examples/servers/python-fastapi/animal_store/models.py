"""The spec's resources: PetStatus, NewPet, Pet, Error."""
from enum import Enum
from typing import Optional

from pydantic import BaseModel, StrictStr, conint, validator

# "integer, format int64": strict (pydantic 1.x would turn "42", 4.2 or true into an int) and in range.
Int64 = conint(strict=True, ge=-(2**63), le=2**63 - 1)


class PetStatus(str, Enum):
    available = "available"
    pending = "pending"
    sold = "sold"


class NewPet(BaseModel):
    name: StrictStr
    categoryId: Int64
    status: Optional[PetStatus] = None

    @validator("name")
    def name_is_unicode(cls, v: str) -> str:
        # Python's json module accepts "\ud800" (RFC 8259 §8.2: unpredictable); such a name could not be sent back.
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("must be valid Unicode (no unpaired surrogate)") from None
        return v

    @validator("status", pre=True)
    def status_not_null(cls, v: object) -> object:
        # The field may be left out, but null is not a PetStatus (pydantic 1.x accepts it for an Optional field).
        if v is None:
            raise ValueError("must be one of available, pending, sold, not null")
        return v


class Pet(BaseModel):
    id: int
    name: str
    categoryId: int
    status: Optional[PetStatus] = None


class Error(BaseModel):
    code: str
    message: str
    status: int
