package animalstore;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fixed-window counter per key, in memory: a key's window opens with its first
 * request after the previous one ended; its quota day is aligned on the Unix epoch
 * (UTC midnight for a real day). Refused requests are not counted.
 */
final class RateLimiter {

    /**
     * The answer to one request. The headers show the per-minute limit, the requests
     * the minute and the day still allow together, and when the binding one resets.
     */
    record Decision(boolean allowed, int limit, int remaining, long resetAtMs, long retryAtMs) {}

    private static final class Bucket {
        long windowStart;
        int windowUsed;
        long dayStart = Long.MIN_VALUE;
        int dayUsed;
    }

    private final long windowMs;
    private final long dayMs;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    RateLimiter(long windowMs, long dayMs) {
        this.windowMs = windowMs;
        this.dayMs = dayMs;
    }

    /** Counts one request on {@code key}; {@code perDay} 0 means no daily quota. */
    Decision acquire(String key, int perMinute, int perDay, long now) {
        Bucket b = buckets.computeIfAbsent(key, k -> new Bucket());
        synchronized (b) {
            if (now - b.windowStart >= windowMs) {
                b.windowStart = now;
                b.windowUsed = 0;
            }
            long dayStart = now - Math.floorMod(now, dayMs);
            if (dayStart != b.dayStart) {
                b.dayStart = dayStart;
                b.dayUsed = 0;
            }
            long windowEnd = b.windowStart + windowMs;
            long dayEnd = b.dayStart + dayMs;
            boolean dayFull = perDay > 0 && b.dayUsed >= perDay;
            boolean windowFull = b.windowUsed >= perMinute;
            boolean allowed = !dayFull && !windowFull;
            if (allowed) {
                b.windowUsed++;
                b.dayUsed++;
            }
            int windowLeft = perMinute - b.windowUsed;
            int dayLeft = perDay > 0 ? perDay - b.dayUsed : Integer.MAX_VALUE;
            boolean dayBinds = dayLeft < windowLeft;
            long retryAt = dayFull ? dayEnd : windowFull ? windowEnd : now;
            return new Decision(allowed, perMinute, Math.min(windowLeft, dayLeft),
                    dayBinds ? dayEnd : windowEnd, retryAt);
        }
    }
}
