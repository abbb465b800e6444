/**
 * Configuration from the environment only. The plans are the spec's table ("Rate limits by plan"),
 * one key each; requests without a valid key are limited per client address at the Free plan's rate.
 */
const env = process.env;

function integer(name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) <= 0) throw new Error(`${name} must be a positive integer, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

export function readConfig() {
  const key = (name, fallback) => env[name] || fallback;
  return {
    host: env.HOST || '127.0.0.1',
    port: integer('PORT', 8080),
    windowMs: integer('WINDOW_MS', 60_000),
    dayMs: integer('DAY_MS', 86_400_000),
    plans: [
      { name: 'free', key: key('API_KEY_FREE', 'as_demo_free_5f1c9e27a8b34d60'), perWindow: 60, perDay: 1_000 },
      { name: 'pro', key: key('API_KEY_PRO', 'as_demo_pro_8b2d4a61c97e3f05'), perWindow: 300, perDay: 10_000 },
      { name: 'business', key: key('API_KEY_BUSINESS', 'as_demo_business_3e7a0c58d21f94b6'), perWindow: 1_000, perDay: 100_000 },
      {
        name: 'enterprise',
        key: key('API_KEY_ENTERPRISE', 'as_demo_enterprise_c4f86b1e09d2a753'),
        perWindow: integer('ENTERPRISE_RPM', 5_000),
        perDay: integer('ENTERPRISE_RPD', 1_000_000),
      },
    ],
    anonymous: { name: 'anonymous', perWindow: 60 },
  };
}
