package main

import (
	"sync"
	"time"
)

// counter counts the requests accepted in one fixed window.
type counter struct {
	start time.Time
	used  int
}

// roll starts a new window when now has left the current one. Windows are
// aligned on the Unix epoch, so a day of the per-day quota starts at UTC midnight.
func (c *counter) roll(now time.Time, length time.Duration) {
	ms := now.UnixMilli()
	start := time.UnixMilli(ms - ms%length.Milliseconds())
	if !c.start.Equal(start) {
		c.start, c.used = start, 0
	}
}

// policy is one limit as the X-RateLimit-* headers describe it.
type policy struct {
	limit, remaining int
	reset            time.Time
}

// decision is the limiter's answer to one request.
type decision struct {
	allowed bool
	// shown is the policy the headers report: the one closest to exhaustion.
	shown policy
	// retryAt is when a refused request may succeed.
	retryAt time.Time
}

// bucket is what one key has used: in the current minute's window and day.
type bucket struct {
	minute, day counter
}

// limiter is a fixed-window counter per key (a minute's window and a day's),
// in memory. Refused requests are not counted.
type limiter struct {
	mu          sync.Mutex
	window, day time.Duration
	buckets     map[string]*bucket
}

func newLimiter(window, day time.Duration) *limiter {
	return &limiter{window: window, day: day, buckets: map[string]*bucket{}}
}

// allow counts one request on key against perMinute and perDay (0: no daily quota).
func (l *limiter) allow(key string, perMinute, perDay int, now time.Time) decision {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{}
		l.buckets[key] = b
	}
	minute, day := &b.minute, &b.day
	minute.roll(now, l.window)
	day.roll(now, l.day)

	minuteFull := minute.used >= perMinute
	dayFull := perDay > 0 && day.used >= perDay
	d := decision{allowed: !minuteFull && !dayFull}
	if d.allowed {
		minute.used++
		day.used++
	}
	m := policy{perMinute, perMinute - minute.used, minute.start.Add(l.window)}
	d.shown = m
	if perDay > 0 {
		dd := policy{perDay, perDay - day.used, day.start.Add(l.day)}
		if dd.remaining < m.remaining || dd.remaining == 0 {
			d.shown = dd
		}
	}
	if minuteFull {
		d.retryAt = m.reset
	}
	if dayFull {
		d.retryAt = day.start.Add(l.day)
	}
	return d
}
