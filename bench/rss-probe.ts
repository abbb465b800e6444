/**
 * Benchmark helper (child process): run the whole conformance suite in process
 * against ANIMAL_STORE_BASE_URL and print the peak RSS of this process as JSON.
 * The configuration comes from the environment the benchmark set (no .env).
 */
import { readConfig } from '../src/settings/read-config.ts';
import { Session } from '../src/harness/session.ts';
import { runSpecs } from '../src/harness/in-process-runner.ts';
import { closeTransport } from '../src/http/transport.ts';

const config = readConfig(process.env, {}, 'conformance');
if (!config.baseUrl) throw new Error('rss-probe: ANIMAL_STORE_BASE_URL is required');
const session = new Session({ config, baseUrl: config.baseUrl });
const out = await runSpecs(session);
await closeTransport();
process.stdout.write(
  `${JSON.stringify({ requests: out.requests, aborted: out.abort ?? null, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`,
);
