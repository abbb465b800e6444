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

/** How the router reads a request line (variants of reference/methods.ts). */
export interface Routing {
  /** HEAD served as GET (RFC 9110 §9.3.2), as most frameworks do. */
  head?: boolean;
  /** `/v1/pets/` served as `/v1/pets`. */
  trailingSlash?: boolean;
}

/** The path as the router matches it. */
const routed = (pathname: string, o: Routing) => (o.trailingSlash && pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname);

/** The methods a path takes (HEAD beside GET where it is served), or undefined when no operation has that path. */
export function allowedAt(pathname: string, o: Routing = {}): string[] | undefined {
  const path = routed(pathname, o);
  const methods = ROUTES.filter((r) => r.pattern.test(path)).map((r) => r.method);
  if (!methods.length) return undefined;
  return [...methods, ...(o.head && methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
}

export function matchRoute(method: string, pathname: string, o: Routing = {}): Route | undefined {
  const wanted = method === 'HEAD' && o.head ? 'GET' : method;
  for (const r of ROUTES) {
    if (r.method !== wanted) continue;
    const m = r.pattern.exec(routed(pathname, o));
    if (!m) continue;
    const params = Object.fromEntries((r.paramNames ?? []).map((name, i) => [name, decode(m[i + 1])]));
    return { operation: r.operation, handler: r.handler, params, deprecated: r.deprecated ?? false };
  }
  return undefined;
}
