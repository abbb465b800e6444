#!/usr/bin/env node
// `npx animal-store-certify` from a checkout: `npm start`'s command, from its JavaScript build (bin/run.mjs).
process.argv.splice(2, 0, 'src/cli/main.ts');
await import('./run.mjs');
