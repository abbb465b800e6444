/** The routes of /v1: method + path pattern → operation handler. Anything else is a 404. */
import { createPet } from './handlers/create-pet.ts';
import { getPet } from './handlers/get-pet.ts';
import { listPets } from './handlers/list-pets.ts';
import type { Handler } from './handlers/handler-context.ts';

export const BASE_PATH = '/v1';

export type Operation = 'listPets' | 'createPet' | 'getPet';

export interface Route {
  operation: Operation;
  handler: Handler;
  params: Record<string, string>;
  deprecated: boolean;
}

interface RouteDef {
  method: string;
  pattern: RegExp;
  operation: Operation;
  handler: Handler;
  paramNames?: string[];
  deprecated?: boolean;
}

const ROUTES: readonly RouteDef[] = [
  { method: 'GET', pattern: /^\/v1\/pets$/, operation: 'listPets', handler: listPets },
  { method: 'POST', pattern: /^\/v1\/pets$/, operation: 'createPet', handler: createPet },
  { method: 'GET', pattern: /^\/v1\/pets\/([^/]+)$/, operation: 'getPet', handler: getPet, paramNames: ['petId'], deprecated: true },
];

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function matchRoute(method: string, pathname: string): Route | undefined {
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(pathname);
    if (!m) continue;
    const params = Object.fromEntries((r.paramNames ?? []).map((name, i) => [name, decode(m[i + 1])]));
    return { operation: r.operation, handler: r.handler, params, deprecated: r.deprecated ?? false };
  }
  return undefined;
}
