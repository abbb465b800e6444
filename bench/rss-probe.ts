/**
 * Benchmark helper (child process): run the whole conformance suite in process
 * against ANIMAL_STORE_BASE_URL and print the peak RSS of this process as JSON.
 */
import { loadConfig } from '../src/config/config.ts';
import { Session } from '../src/harness/session.ts';
import { runSpecs } from '../src/harness/runner.ts';
import { closeTransport } from '../src/http/transport.ts';

const config = loadConfig();
const session = new Session({ config, baseUrl: config.baseUrl! });
const out = await runSpecs(session);
await closeTransport();
process.stdout.write(
  `${JSON.stringify({ requests: out.requests, aborted: out.abort ?? null, maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`,
);
