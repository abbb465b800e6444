package animalstore;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * In front of every route: authentication, then the rate limit. Sets the
 * X-RateLimit-* headers on every response, the 401 and 429 included.
 */
final class RateLimitFilter extends Filter {
    /** Requests that fail authentication are limited per client address (guessing keys is throttled too). */
    private static final int ANONYMOUS_PER_MINUTE = 60;

    private final Config config;
    private final RateLimiter limiter;

    RateLimitFilter(Config config, RateLimiter limiter) {
        this.config = config;
        this.limiter = limiter;
    }

    @Override
    public String description() {
        return "bearer authentication and rate limiting";
    }

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
        long now = System.currentTimeMillis();
        String key = authenticate(exchange.getRequestHeaders().getFirst("Authorization"));
        Config.Plan plan = key == null ? null : config.plans().get(key);
        RateLimiter.Decision d = plan == null
                ? limiter.acquire("addr:" + exchange.getRemoteAddress().getAddress().getHostAddress(), ANONYMOUS_PER_MINUTE, 0, now)
                : limiter.acquire("key:" + key, plan.perMinute(), plan.perDay(), now);
        Headers h = exchange.getResponseHeaders();
        h.set("X-RateLimit-Limit", Integer.toString(d.limit()));
        h.set("X-RateLimit-Remaining", Integer.toString(d.remaining()));
        h.set("X-RateLimit-Reset", Long.toString(Math.floorDiv(d.resetAtMs() + 999, 1000)));
        if (!d.allowed()) {
            h.set("Retry-After", Long.toString(Math.max(1, Math.floorDiv(d.retryAtMs() - now + 999, 1000))));
            Json.sendError(exchange, 429, "RATE_LIMITED", "Too many requests: retry after the time in Retry-After");
        } else if (plan == null) {
            h.set("WWW-Authenticate", "Bearer realm=\"animal-store\"");
            Json.sendError(exchange, 401, "UNAUTHORIZED", "Missing or invalid API key");
        } else {
            chain.doFilter(exchange);
        }
    }

    /** The known key of "Authorization: Bearer <key>" (the scheme is case-insensitive, RFC 9110 §11.1), or null. */
    private String authenticate(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) return null;
        byte[] token = authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8);
        for (String key : config.plans().keySet()) {
            if (MessageDigest.isEqual(key.getBytes(StandardCharsets.UTF_8), token)) return key;
        }
        return null;
    }
}
