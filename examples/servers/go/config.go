package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// plan is what a key is allowed: requests per window (a minute) and per day.
type plan struct {
	name      string
	perMinute int
	perDay    int
}

type config struct {
	host, port  string
	window, day time.Duration
	// plans maps each API key (the Bearer token) to its plan.
	plans map[string]plan
}

func env(name, fallback string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return fallback
}

func envInt(name string, fallback int) (int, error) {
	v := env(name, strconv.Itoa(fallback))
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s=%q: a positive integer is required", name, v)
	}
	return n, nil
}

func loadConfig() (config, error) {
	cfg := config{host: env("HOST", "127.0.0.1"), port: env("PORT", "8080")}
	windowMs, err := envInt("WINDOW_MS", 60000)
	if err != nil {
		return cfg, err
	}
	dayMs, err := envInt("DAY_MS", 86400000)
	if err != nil {
		return cfg, err
	}
	rpm, err := envInt("ENTERPRISE_RPM", 5000)
	if err != nil {
		return cfg, err
	}
	rpd, err := envInt("ENTERPRISE_RPD", 1000000)
	if err != nil {
		return cfg, err
	}
	cfg.window = time.Duration(windowMs) * time.Millisecond
	cfg.day = time.Duration(dayMs) * time.Millisecond
	cfg.plans = map[string]plan{
		env("API_KEY_FREE", "as_demo_free_5f1c9e27a8b34d60"):             {"free", 60, 1000},
		env("API_KEY_PRO", "as_demo_pro_8b2d4a61c97e3f05"):               {"pro", 300, 10000},
		env("API_KEY_BUSINESS", "as_demo_business_3e7a0c58d21f94b6"):     {"business", 1000, 100000},
		env("API_KEY_ENTERPRISE", "as_demo_enterprise_c4f86b1e09d2a753"): {"enterprise", rpm, rpd},
	}
	return cfg, nil
}
