#!/usr/bin/env node
// `npx animal-store-certify` from a checkout: load TypeScript through tsx, then run the certification.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
