/**
 * The methods a request may carry besides its operation's (issue 39), once, for the spec file that sends every method
 * on every path and for the exploration's method forms: the RFC 9110 methods (CONNECT aside: it asks for a tunnel, not
 * a resource, §9.3.6) and an extension token, which of them a path documents, and which could write. Pure data.
 */
import { OPERATIONS, type OperationId } from './operations.ts';

/**
 * An extension method (RFC 9110 §16.1): QUERY, registered with IANA but in no RFC 9110 and implemented by few — safe
 * by its definition (it asks, with a body, what GET asks). A token nobody registered would tell nothing of a Node
 * server: its parser refuses any method it does not know with a bare 400 before the application sees it.
 */
export const EXTENSION_METHOD = 'QUERY';

/** The methods that cannot write (RFC 9110 §9.2.1), the extension included. */
export const SAFE_METHODS: readonly string[] = ['GET', 'HEAD', 'OPTIONS', 'TRACE', EXTENSION_METHOD];

/** Methods that could write: sent only to an id no server issued, and never to the collection. */
export const UNSAFE_METHODS: readonly string[] = ['POST', 'PUT', 'PATCH', 'DELETE'];

export const isSafeMethod = (m: string): boolean => SAFE_METHODS.includes(m);

/** The path template of an operation, and the methods the spec documents on it. */
export const pathOf = (op: OperationId): string => OPERATIONS[op].path;

export function documentedAt(path: string): string[] {
  return Object.values(OPERATIONS)
    .filter((o) => o.path === path)
    .map((o) => o.method);
}

/**
 * The methods sent to a path besides the documented ones: HEAD, OPTIONS, TRACE and the extension everywhere; the
 * methods that could write only where a path names one resource (its id chosen so that none exists).
 */
export function otherMethodsAt(path: string): string[] {
  const documented = documentedAt(path);
  const item = path.includes('{');
  const methods = ['HEAD', 'OPTIONS', 'TRACE', ...(item ? UNSAFE_METHODS : []), EXTENSION_METHOD];
  return methods.filter((m) => !documented.includes(m));
}
