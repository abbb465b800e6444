/**
 * Transport: every request gets a complete answer on its own origin.
 * The section's requirements — the spec's words, the level, the reference server's fault modes that prove each —
 * beside the rules that decide them (this folder). Pure data (bundled for k6).
 */
import { section } from '../define.ts';

export const TRANSPORT = section('transport', {
  'TRANSPORT-COMPLETE-RESPONSE': {
    level: 'MUST',
    section: 'Endpoints',
    quote: 'All success and error bodies are application/json.',
    title: 'Every request gets a complete HTTP response within the timeout and the body size cap.',
    faults: ['huge-body', 'hang', 'reset-connection'],
    titles: {
      'load-samples': 'Requests without a complete response',
      'client-late': 'Timeouts while the client ran late',
      pass: 'Complete response',
      fail: 'Transport failure: {kind}',
    },
  },
  'TRANSPORT-NO-CROSS-ORIGIN-REDIRECT': {
    level: 'MUST',
    section: 'Authentication',
    quote: 'The client sends its API key as the bearer token in the Authorization header.',
    title: 'The service answers on its own origin instead of redirecting the credential to another host.',
    faults: ['redirect-cross-origin'],
    titles: {
      pass: 'Answered on its own origin',
      fail: 'Cross-origin redirect',
    },
  },
});
