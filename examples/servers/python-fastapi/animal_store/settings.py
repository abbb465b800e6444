"""Configuration from the environment only (pydantic's BaseSettings: names are case-insensitive)."""
from dataclasses import dataclass
from typing import Dict, Optional

from pydantic import BaseSettings, validator


@dataclass(frozen=True)
class Plan:
    name: str
    per_window: int
    per_day: Optional[int]


class Settings(BaseSettings):
    host: str = "127.0.0.1"
    port: int = 8080
    window_ms: int = 60_000
    day_ms: int = 86_400_000
    api_key_free: str = "as_demo_free_5f1c9e27a8b34d60"
    api_key_pro: str = "as_demo_pro_8b2d4a61c97e3f05"
    api_key_business: str = "as_demo_business_3e7a0c58d21f94b6"
    api_key_enterprise: str = "as_demo_enterprise_c4f86b1e09d2a753"
    enterprise_rpm: int = 5000
    enterprise_rpd: int = 1_000_000

    @validator("window_ms", "day_ms")
    def whole_seconds(cls, v: int) -> int:
        # The limits library counts windows in whole seconds.
        if v < 1000 or v % 1000:
            raise ValueError("must be a positive multiple of 1000 (the limits library counts whole seconds)")
        return v

    def plans_by_key(self) -> Dict[str, Plan]:
        """The spec's table of plans ("Rate limits by plan"), one key each."""
        return {
            self.api_key_free: Plan("free", 60, 1_000),
            self.api_key_pro: Plan("pro", 300, 10_000),
            self.api_key_business: Plan("business", 1_000, 100_000),
            self.api_key_enterprise: Plan("enterprise", self.enterprise_rpm, self.enterprise_rpd),
        }


# Requests without a valid key are limited per client address, at the Free plan's rate.
ANONYMOUS = Plan("anonymous", 60, None)
