/**
 * Every setting of every entry point, defined once: its flag, its environment
 * variable, its kind and its help line, and which commands take it. The reader
 * (./read-config.ts), the flag parser and `--help` of every command (src/config),
 * README's table and .env.example all come from (or are checked against) this
 * table. Pure (bundled for k6, which reads the same variables from __ENV).
 */
import { PLAN_NAMES } from '../core/plans.ts';
import { SCENARIO_NAMES } from '../core/scenarios.ts';

export type Command = 'start' | 'conformance' | 'load' | 'reference';
export const COMMANDS: readonly Command[] = ['start', 'conformance', 'load', 'reference'];

/** int: a positive integer; count: zero or more. */
export type Kind = 'string' | 'int' | 'count' | 'bool' | 'enum' | 'list' | 'url';

export interface Setting {
  /** Key in the parsed settings and the flag name (`--<flag>`). */
  flag: string;
  /** Environment variable (also a k6 `-e` variable); none for flags that only make sense on a command line. */
  env?: string;
  kind: Kind;
  /** Allowed values (enum) or list items. */
  values?: readonly string[];
  /** Argument placeholder in the help, e.g. "N" or "URL". */
  arg?: string;
  help: string;
  /** Help section. */
  group: 'target' | 'network' | 'safety' | 'explore' | 'load' | 'certify' | 'reference' | 'output';
  commands: readonly Command[];
  /** Other flag spellings accepted (e.g. `--scenario`). */
  aliases?: readonly string[];
  /** Other variables read when `env` is not set (`https_proxy` after `HTTPS_PROXY`, the order Go reads them in). */
  envAliases?: readonly string[];
}

const RUNS: readonly Command[] = ['start', 'conformance', 'load'];
const LOADS: readonly Command[] = ['start', 'load'];

/** The network between the suite and its target (./network.ts): every phase and both engines take it. */
const NETWORK: readonly Setting[] = [
  {
    flag: 'proxy',
    kind: 'string',
    arg: 'URL',
    help: 'proxy of every target, http and https alike (http://[user:password@]host:port); wins over HTTPS_PROXY and HTTP_PROXY',
    group: 'network',
    commands: RUNS,
  },
  {
    flag: 'https-proxy',
    env: 'HTTPS_PROXY',
    envAliases: ['https_proxy'],
    kind: 'string',
    arg: 'URL',
    help: 'proxy of an https target: a CONNECT tunnel, the key only inside it',
    group: 'network',
    commands: RUNS,
  },
  {
    flag: 'http-proxy',
    env: 'HTTP_PROXY',
    envAliases: ['http_proxy'],
    kind: 'string',
    arg: 'URL',
    help: 'proxy of an http target: it would read the key in clear, so refused unless --allow-cleartext-proxy',
    group: 'network',
    commands: RUNS,
  },
  {
    flag: 'no-proxy',
    env: 'NO_PROXY',
    envAliases: ['no_proxy'],
    kind: 'string',
    arg: 'a,b',
    help: 'hosts reached without the proxy: names (and their subdomains), IPs, CIDR blocks, * for all; localhost and loopback addresses never use one',
    group: 'network',
    commands: RUNS,
  },
  {
    flag: 'allow-cleartext-proxy',
    env: 'ANIMAL_STORE_ALLOW_CLEARTEXT_PROXY',
    kind: 'bool',
    help: 'let an http:// target go through HTTP_PROXY although the proxy then reads the API key in clear (refused unless given)',
    group: 'network',
    commands: RUNS,
  },
  {
    flag: 'ca-file',
    env: 'ANIMAL_STORE_CA_FILE',
    kind: 'string',
    arg: 'FILE',
    help: "PEM file of the CA certificates to trust besides the system's (a staging server's internal CA)",
    group: 'network',
    commands: RUNS,
  },
  {
    flag: 'client-cert',
    env: 'ANIMAL_STORE_CLIENT_CERT',
    kind: 'string',
    arg: 'FILE',
    help: 'PEM file of the client certificate to present (mutual TLS), with --client-key (its passphrase from ANIMAL_STORE_CLIENT_KEY_PASSPHRASE only)',
    group: 'network',
    commands: RUNS,
  },
  {
    flag: 'client-key',
    env: 'ANIMAL_STORE_CLIENT_KEY',
    kind: 'string',
    arg: 'FILE',
    help: "PEM file of the client certificate's private key",
    group: 'network',
    commands: RUNS,
  },
  {
    flag: 'http2',
    env: 'ANIMAL_STORE_HTTP2',
    kind: 'bool',
    help: 'offer HTTP/2 by ALPN on https, as browsers and CDNs do; HTTP/1.1 where the server does not take it (default: HTTP/1.1 only)',
    group: 'network',
    commands: RUNS,
  },
  {
    flag: 'insecure',
    env: 'ANIMAL_STORE_INSECURE',
    kind: 'bool',
    help: "do not verify the server's certificate: a throwaway staging box only; the certificate says so, and production refuses it",
    group: 'network',
    commands: RUNS,
  },
  {
    flag: 'tls',
    env: 'ANIMAL_STORE_TLS',
    kind: 'bool',
    help: 'serve the reference server (or the embedded one) over HTTPS, with a CA made for the run and trusted by it only',
    group: 'network',
    commands: [...RUNS, 'reference'],
  },
  {
    flag: 'mutual-tls',
    env: 'ANIMAL_STORE_MUTUAL_TLS',
    kind: 'bool',
    help: "as --tls, and the server demands a client certificate of that CA (the embedded server's run presents one)",
    group: 'network',
    commands: [...RUNS, 'reference'],
  },
];

export const SETTINGS: readonly Setting[] = [
  // where and who
  {
    flag: 'env',
    env: 'ANIMAL_STORE_ENV',
    kind: 'enum',
    values: ['local', 'staging', 'production'],
    help: 'the environment: local (the embedded reference server), staging or production; default local',
    group: 'target',
    commands: RUNS,
  },
  {
    flag: 'base-url',
    env: 'ANIMAL_STORE_BASE_URL',
    kind: 'url',
    arg: 'URL',
    help: 'base address of the target, ending in /v1; always wins over the two below',
    group: 'target',
    commands: RUNS,
  },
  {
    flag: 'staging-url',
    env: 'ANIMAL_STORE_STAGING_URL',
    kind: 'url',
    arg: 'URL',
    help: 'base address used with --env staging',
    group: 'target',
    commands: RUNS,
  },
  {
    flag: 'production-url',
    env: 'ANIMAL_STORE_PRODUCTION_URL',
    kind: 'url',
    arg: 'URL',
    help: 'base address used with --env production',
    group: 'target',
    commands: RUNS,
  },
  {
    flag: 'plan',
    env: 'ANIMAL_STORE_PLAN',
    kind: 'enum',
    values: PLAN_NAMES,
    help: 'plan of the key; never guessed for a real target (pro on the embedded server)',
    group: 'target',
    commands: RUNS,
  },
  {
    flag: 'plans',
    env: 'ANIMAL_STORE_PLANS',
    kind: 'list',
    values: PLAN_NAMES,
    arg: 'a,b',
    help: 'certify several plans in one run, each with its own key from ANIMAL_STORE_API_KEY_<PLAN> (default: every plan that has one)',
    group: 'target',
    commands: LOADS,
  },
  {
    flag: 'rpm',
    env: 'ANIMAL_STORE_RPM',
    kind: 'int',
    arg: 'N',
    help: 'enterprise plan: requests per minute (required for enterprise rate-limit scenarios)',
    group: 'target',
    commands: [...RUNS, 'reference'],
  },
  {
    flag: 'rpd',
    env: 'ANIMAL_STORE_RPD',
    kind: 'int',
    arg: 'N',
    help: 'enterprise plan: requests per day',
    group: 'target',
    commands: [...RUNS, 'reference'],
  },
  ...NETWORK,
  // safety
  {
    flag: 'allow-writes',
    env: 'ANIMAL_STORE_ALLOW_WRITES',
    kind: 'bool',
    help: 'may the run create pets (default: false in production, true otherwise)',
    group: 'safety',
    commands: RUNS,
  },
  {
    flag: 'timeout-ms',
    env: 'ANIMAL_STORE_TIMEOUT_MS',
    kind: 'int',
    arg: 'N',
    help: 'timeout of every request: connect, headers and body (default 10000)',
    group: 'safety',
    commands: RUNS,
  },
  {
    flag: 'max-body-bytes',
    env: 'ANIMAL_STORE_MAX_BODY_BYTES',
    kind: 'int',
    arg: 'N',
    help: 'largest response body read (default 1048576)',
    group: 'safety',
    commands: RUNS,
  },
  {
    flag: 'deadline-ms',
    env: 'ANIMAL_STORE_DEADLINE_MS',
    kind: 'int',
    arg: 'N',
    help: 'deadline of the whole run (default 900000)',
    group: 'safety',
    commands: RUNS,
  },
  {
    flag: 'max-requests',
    env: 'ANIMAL_STORE_MAX_REQUESTS',
    kind: 'int',
    arg: 'N',
    help: 'hard request budget of the whole run (default 1000 in production, 5000 for staging or any base URL, 50000 on the embedded server)',
    group: 'safety',
    commands: RUNS,
  },
  {
    flag: 'max-wait-ms',
    env: 'ANIMAL_STORE_MAX_WAIT_MS',
    kind: 'int',
    arg: 'N',
    help: 'longest wait for a window, a Retry-After or a fresh quota day; a longer one ends the run (default 70000; on the embedded server with the daily scenario, its whole short day if longer)',
    group: 'safety',
    commands: RUNS,
  },
  {
    flag: 'name-prefix',
    env: 'ANIMAL_STORE_NAME_PREFIX',
    kind: 'string',
    arg: 'TEXT',
    help: 'name prefix of every pet the suite creates (default animal-store-conformance-)',
    group: 'safety',
    commands: ['start', 'conformance'],
  },
  // rate-limit scenarios
  {
    flag: 'scenarios',
    env: 'ANIMAL_STORE_SCENARIOS',
    kind: 'list',
    values: SCENARIO_NAMES,
    arg: 'a,b',
    aliases: ['scenario'],
    help: `rate-limit scenarios to run (${SCENARIO_NAMES.join(', ')})`,
    group: 'load',
    commands: LOADS,
  },
  {
    flag: 'engine',
    env: 'ANIMAL_STORE_ENGINE',
    kind: 'enum',
    values: ['auto', 'k6', 'node'],
    help: 'load engine: auto (k6 when on PATH and a release the suite runs, else the Node engine), k6, or node (default auto)',
    group: 'load',
    commands: LOADS,
  },
  {
    flag: 'window-ms',
    env: 'ANIMAL_STORE_WINDOW_MS',
    kind: 'int',
    arg: 'N',
    help: "the server's rate-limit window (default 60000; on the embedded server 1 s per 300 requests of the largest limit under test: 1000 for pro)",
    group: 'load',
    commands: LOADS,
  },
  {
    flag: 'day-ms',
    env: 'ANIMAL_STORE_DAY_MS',
    kind: 'int',
    arg: 'N',
    help: "the server's quota day (default 86400000; on the embedded server the short day its daily scenario needs: 20000 for pro)",
    group: 'load',
    commands: LOADS,
  },
  {
    flag: 'allow-daily',
    env: 'ANIMAL_STORE_LOAD_DAILY',
    kind: 'bool',
    help: "allow the daily scenario, which spends the key's whole daily quota (default: no; yes on the embedded server, whose key and quota day are the suite's own)",
    group: 'load',
    commands: LOADS,
  },
  {
    flag: 'max-vus',
    env: 'ANIMAL_STORE_LOAD_MAX_VUS',
    kind: 'int',
    arg: 'N',
    help: "k6: the least VUs of the arrival-rate scenarios, more for the sustained pace when the latency of the key's earlier scenario needs them (default 1)",
    group: 'load',
    commands: LOADS,
  },
  {
    flag: 'distributed',
    env: 'ANIMAL_STORE_LOAD_DISTRIBUTED',
    kind: 'bool',
    help: 'k6: this run is one share of several (k6-operator, execution segments)',
    group: 'load',
    commands: LOADS,
  },
  // exploration (generated inputs)
  {
    flag: 'explore-budget',
    env: 'ANIMAL_STORE_EXPLORE_BUDGET',
    kind: 'count',
    arg: 'N',
    help: "requests the exploration phase (generated inputs, after the specs) may send; 0 turns it off (default 400 on the embedded server, on staging or a base URL, 120 in production, GET only unless writes are on: every coverage case fits in every run); it also stops after 45 s of the server's time",
    group: 'explore',
    commands: ['start', 'conformance'],
  },
  {
    flag: 'seed',
    env: 'ANIMAL_STORE_SEED',
    kind: 'count',
    arg: 'N',
    help: "the exploration phase's seed, 0 to 4294967295: the same seed sends the same requests to the same server (default: a new one each run, printed in the report)",
    group: 'explore',
    commands: ['start', 'conformance'],
  },
  // certification
  {
    flag: 'profile',
    env: 'ANIMAL_STORE_PROFILE',
    kind: 'enum',
    values: ['quick', 'full'],
    help: 'quick: conformance, ceiling and recovery (on the embedded server every scenario, the daily one included); full: writes on and every per-minute scenario, and daily when allowed (certifies completely)',
    group: 'certify',
    commands: ['start'],
  },
  { flag: 'only', kind: 'enum', values: ['conformance', 'load'], help: 'run one half only', group: 'certify', commands: ['start'] },
  {
    flag: 'require-complete',
    env: 'ANIMAL_STORE_REQUIRE_COMPLETE',
    kind: 'bool',
    help: 'exit 4 unless every MUST requirement was exercised (certifying a server)',
    group: 'certify',
    commands: ['start', 'conformance'],
  },
  {
    flag: 'waivers',
    env: 'ANIMAL_STORE_WAIVERS',
    kind: 'string',
    arg: 'FILE',
    help: 'waiver file (default waivers.json)',
    group: 'certify',
    commands: ['start', 'conformance'],
  },
  {
    flag: 'allow-must-waivers',
    kind: 'bool',
    help: 'let waivers cover MUST requirements (the certificate says so)',
    group: 'certify',
    commands: ['start', 'conformance'],
  },
  {
    flag: 'baseline',
    env: 'ANIMAL_STORE_BASELINE',
    kind: 'string',
    arg: 'FILE',
    help: 'certification.json to compare with (default: the previous run in the reports folder)',
    group: 'certify',
    commands: ['start', 'conformance'],
  },
  {
    flag: 'dry-run',
    kind: 'bool',
    help: 'print the planned requests, the budget and the expected duration; send nothing',
    group: 'certify',
    commands: ['start', 'load'],
  },
  // output
  {
    flag: 'reports-dir',
    env: 'ANIMAL_STORE_REPORTS_DIR',
    kind: 'string',
    arg: 'DIR',
    help: 'where reports go (default reports)',
    group: 'output',
    commands: RUNS,
  },
  { flag: 'verbose', kind: 'bool', help: "also print Vitest's own output and a curl line per failure", group: 'output', commands: RUNS },
  { flag: 'no-progress', env: 'ANIMAL_STORE_NO_PROGRESS', kind: 'bool', help: 'no progress lines', group: 'output', commands: RUNS },
  // the reference server
  {
    flag: 'host',
    env: 'ANIMAL_STORE_REFERENCE_HOST',
    kind: 'string',
    arg: 'HOST',
    help: 'address to listen on (default 127.0.0.1)',
    group: 'reference',
    commands: ['reference'],
  },
  {
    flag: 'port',
    env: 'ANIMAL_STORE_REFERENCE_PORT',
    kind: 'int',
    arg: 'N',
    help: 'port to listen on (default 4010)',
    group: 'reference',
    commands: ['reference'],
  },
  {
    flag: 'faults',
    env: 'ANIMAL_STORE_FAULT',
    kind: 'string',
    arg: 'a,b',
    aliases: ['fault'],
    help: 'fault modes to switch on (listed below)',
    group: 'reference',
    commands: ['reference'],
  },
  {
    flag: 'variants',
    env: 'ANIMAL_STORE_VARIANTS',
    kind: 'string',
    arg: 'k=v,…',
    aliases: ['variant'],
    help: 'valid variants to switch on, e.g. limiter=sliding,retryAfter=http-date (listed below)',
    group: 'reference',
    commands: ['reference'],
  },
  { flag: 'help', kind: 'bool', help: 'this text', group: 'output', commands: COMMANDS },
  {
    flag: 'version',
    kind: 'bool',
    help: "the suite's package name and version (also in every report)",
    group: 'output',
    commands: ['start'],
  },
];

/** The key is never a flag: it would show in process lists and shell history. */
export const KEY_FLAGS: readonly string[] = ['api-key', 'key', 'token'];
export const KEY_FLAG_ERROR =
  'the API key is not accepted as a flag (it would show in process lists and shell history); set ANIMAL_STORE_API_KEY in the environment or .env';

export function settingsFor(command: Command): Setting[] {
  return SETTINGS.filter((s) => s.commands.indexOf(command) >= 0);
}

export function findSetting(flag: string): Setting | undefined {
  for (const s of SETTINGS) if (s.flag === flag || (s.aliases && s.aliases.indexOf(flag) >= 0)) return s;
  return undefined;
}
