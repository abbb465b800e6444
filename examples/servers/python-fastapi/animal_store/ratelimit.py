"""
The spec's rate limits with the limits library: a moving window per key for the per-minute
limit (no span of one window ever holds more than the plan's number), and a per-day quota
counted in fixed days aligned on the Unix epoch (UTC midnight for a real day).
"""
import math
import time
from dataclasses import dataclass
from typing import Dict, Optional

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter

from .settings import Plan


@dataclass(frozen=True)
class Quota:
    """What the X-RateLimit-* headers say about one request; retry_after is set when it was refused."""

    limit: int
    remaining: int
    reset: int
    retry_after: Optional[int] = None

    @property
    def allowed(self) -> bool:
        return self.retry_after is None

    def headers(self) -> Dict[str, str]:
        h = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.reset),
        }
        if self.retry_after is not None:
            h["Retry-After"] = str(self.retry_after)
        return h


class RateLimiter:
    def __init__(self, window_ms: int, day_ms: int) -> None:
        self._storage = MemoryStorage()
        self._window = MovingWindowRateLimiter(self._storage)
        self._days = FixedWindowRateLimiter(self._storage)
        self._window_s = window_ms // 1000
        self._day_ms = day_ms

    def hit(self, who: str, plan: Plan) -> Quota:
        """Count one request of `who` on its plan, or refuse it (a refused request is not counted)."""
        now = time.time()
        window = RateLimitItemPerSecond(plan.per_window, self._window_s, namespace="window")
        if plan.per_day is not None:
            day = int(now * 1000) // self._day_ms
            per_day = RateLimitItemPerSecond(plan.per_day, self._day_ms // 1000, namespace="day")
            if not self._days.test(per_day, who, str(day)):
                # The day's quota is the limit in force: the headers and Retry-After say so.
                day_end = (day + 1) * self._day_ms // 1000
                return Quota(plan.per_day, 0, day_end, max(1, math.ceil(day_end - now)))
        if not self._window.hit(window, who):
            reset = self._reset(window, who)
            return Quota(plan.per_window, 0, reset, max(1, math.ceil(reset - now)))
        if plan.per_day is not None:
            self._days.hit(per_day, who, str(day))
        _, remaining = self._window.get_window_stats(window, who)
        return Quota(plan.per_window, remaining, self._reset(window, who))

    def _reset(self, window: RateLimitItemPerSecond, who: str) -> int:
        # limits truncates the window's start to the second: one more second is never early (slowapi does the same).
        start_plus_window, _ = self._window.get_window_stats(window, who)
        return start_plus_window + 1
