package animalstore;

import java.util.Map;

/** The server's configuration, from environment variables only. */
record Config(String host, int port, long windowMs, long dayMs, Map<String, Plan> plans) {

    /** What a key is allowed: requests per window (a minute) and per day. */
    record Plan(String name, int perMinute, int perDay) {}

    static Config fromEnvironment() {
        int rpm = (int) number("ENTERPRISE_RPM", 5000);
        int rpd = (int) number("ENTERPRISE_RPD", 1_000_000);
        Map<String, Plan> plans = Map.of(
                env("API_KEY_FREE", "as_demo_free_5f1c9e27a8b34d60"), new Plan("free", 60, 1_000),
                env("API_KEY_PRO", "as_demo_pro_8b2d4a61c97e3f05"), new Plan("pro", 300, 10_000),
                env("API_KEY_BUSINESS", "as_demo_business_3e7a0c58d21f94b6"), new Plan("business", 1_000, 100_000),
                env("API_KEY_ENTERPRISE", "as_demo_enterprise_c4f86b1e09d2a753"), new Plan("enterprise", rpm, rpd));
        return new Config(env("HOST", "127.0.0.1"), (int) number("PORT", 8080),
                number("WINDOW_MS", 60_000), number("DAY_MS", 86_400_000), plans);
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }

    private static long number(String name, long fallback) {
        String value = env(name, Long.toString(fallback));
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n <= 0) throw new IllegalArgumentException(name + "=" + value + ": a positive integer is required");
        return n;
    }
}
