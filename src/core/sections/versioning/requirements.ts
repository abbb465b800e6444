/**
 * Versioning: the /v1 base path.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

export const VERSIONING = section('versioning', {
  'VERSION-BASE-PATH': {
    level: 'SHOULD',
    section: 'Versioning',
    quote: 'The version appears in the base address as the path segment /v1.',
    title: 'The base address ends with the /v1 version segment.',
    titles: {
      pass: 'Base address ends with /v1',
      fail: 'Base address lacks /v1',
    },
  },
});
