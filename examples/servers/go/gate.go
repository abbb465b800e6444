package main

import (
	"crypto/subtle"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// anonymousPerMinute limits, per client address, the requests that fail
// authentication (so that guessing keys is throttled too).
const anonymousPerMinute = 60

// gate is the middleware in front of every route: authentication, then the
// rate limit; it sets the X-RateLimit-* headers on every response.
type gate struct {
	cfg     config
	limiter *limiter
}

func (g *gate) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		key, p, ok := g.authenticate(r)
		if !ok {
			d := g.limiter.allow("addr:"+clientAddr(r), anonymousPerMinute, 0, now)
			setRateLimitHeaders(w, d, now)
			if !d.allowed {
				writeError(w, http.StatusTooManyRequests, "rate_limited", "too many requests; retry after the time in Retry-After")
				return
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="animal-store"`)
			writeError(w, http.StatusUnauthorized, "unauthorized", "missing or invalid API key")
			return
		}
		d := g.limiter.allow("key:"+key, p.perMinute, p.perDay, now)
		setRateLimitHeaders(w, d, now)
		if !d.allowed {
			writeError(w, http.StatusTooManyRequests, "rate_limited", "too many requests; retry after the time in Retry-After")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// authenticate reads "Authorization: Bearer <key>" (the scheme is case-insensitive, RFC 9110 §11.1).
func (g *gate) authenticate(r *http.Request) (string, plan, bool) {
	scheme, token, found := strings.Cut(r.Header.Get("Authorization"), " ")
	token = strings.TrimLeft(token, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", plan{}, false
	}
	for key, p := range g.cfg.plans {
		if subtle.ConstantTimeCompare([]byte(key), []byte(token)) == 1 {
			return key, p, true
		}
	}
	return "", plan{}, false
}

func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func setRateLimitHeaders(w http.ResponseWriter, d decision, now time.Time) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(d.shown.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(d.shown.remaining))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(ceilSeconds(d.shown.reset), 10))
	if !d.allowed {
		wait := math.Ceil(d.retryAt.Sub(now).Seconds())
		h.Set("Retry-After", strconv.Itoa(int(math.Max(1, wait))))
	}
}

// ceilSeconds is t in Unix seconds, rounded up: the limit has reset by then.
func ceilSeconds(t time.Time) int64 {
	ms := t.UnixMilli()
	return (ms + 999) / 1000
}
