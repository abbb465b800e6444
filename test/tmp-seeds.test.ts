import { test } from 'vitest';
import { runSuiteAgainst } from './support/suite.ts';
test('seeds real', async () => {
  for (let seed = 0; seed < 6; seed++) {
    const t0 = Date.now();
    const run = await runSuiteAgainst({ variants: { wire: { chunkedClose: seed % 2 === 0 } } }, { real: true, env: { ANIMAL_STORE_SEED: String(seed * 7919 + 13) } });
    const errs = run.findings.filter((f) => f.outcome === 'error');
    console.log(seed, Date.now() - t0, 'ms', run.requests, run.problems(), errs.map((e) => e.message));
  }
}, 300000);
