/** What every operation handler receives. */
import type { ErrorFactory } from '../errors.ts';
import type { Has } from '../faults.ts';
import type { Variants } from '../options.ts';
import type { Reply } from '../reply.ts';
import type { PetStore } from '../pet-store.ts';
import type { HeldOut39 } from '../held-out-faults-39.ts';

export interface Ctx {
  url: URL;
  /** Path parameters, e.g. { petId }. */
  params: Record<string, string>;
  /** The request body text. */
  body: string;
  /** A request header (joined when repeated). */
  header(name: string): string | undefined;
  bodyTooLarge: boolean;
  store: PetStore;
  has: Has;
  variants: Variants;
  error: ErrorFactory;
  /**
   * Dry run of an unauthenticated request (fault validate-before-auth): the
   * handler validates and looks up, but changes nothing and returns undefined
   * where it would have succeeded.
   */
  probe: boolean;
  /** What the held-out faults of issue 39 and their variants keep between requests (with the server's clock). */
  h39: HeldOut39;
  /** Fault create-id-race: the id a create read as it arrived. */
  reservedId?: bigint;
}

export type Handler = (ctx: Ctx) => Reply | undefined;
