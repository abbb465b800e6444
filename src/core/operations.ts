/**
 * The operations of the spec, once: method, path, whether deprecated, and each
 * documented status with the schema of its body and what it means (the spec's
 * Responses tables). The check registry judges statuses and bodies by it, and
 * the OpenAPI document is built from it. Pure data (bundled for k6).
 */
export type OperationId = 'listPets' | 'createPet' | 'getPet';
export type BodySchema = 'Pet' | 'Pets' | 'Error';

export interface OperationSpec {
  method: 'GET' | 'POST';
  /** Relative to the base address (which ends in /v1). */
  path: string;
  summary: string;
  deprecated: boolean;
  /** Its parameters (the OpenAPI document's components), in order. */
  parameters: readonly ('limit' | 'status' | 'petId')[];
  /** The schema of its request body, when it takes one. */
  requestBody?: 'NewPet';
  /** Documented statuses: the schema of the body and the spec's meaning. 429 is any operation's, as far as the limit applies. */
  responses: Readonly<Record<number, { schema: BodySchema; meaning: string }>>;
}

const UNAUTHORIZED = { schema: 'Error', meaning: 'Missing or invalid API key.' } as const;

export const OPERATIONS: Readonly<Record<OperationId, OperationSpec>> = {
  listPets: {
    method: 'GET',
    path: '/pets',
    summary: 'List all animals',
    deprecated: false,
    parameters: ['limit', 'status'],
    responses: { 200: { schema: 'Pets', meaning: 'Page of animals.' }, 401: UNAUTHORIZED },
  },
  createPet: {
    method: 'POST',
    path: '/pets',
    summary: 'Add an animal',
    deprecated: false,
    parameters: [],
    requestBody: 'NewPet',
    responses: {
      201: { schema: 'Pet', meaning: 'Animal added; the body carries the assigned id.' },
      400: { schema: 'Error', meaning: 'Body is missing required fields or contains invalid values.' },
      401: UNAUTHORIZED,
    },
  },
  getPet: {
    method: 'GET',
    path: '/pets/{petId}',
    summary: 'Get an animal (deprecated)',
    deprecated: true,
    parameters: ['petId'],
    responses: {
      200: { schema: 'Pet', meaning: 'The requested animal.' },
      401: UNAUTHORIZED,
      404: { schema: 'Error', meaning: 'The requested resource could not be found.' },
    },
  },
};

export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[];

/** The statuses the spec documents for an operation. */
export function documentedStatuses(op: OperationId): number[] {
  return Object.keys(OPERATIONS[op].responses).map(Number);
}
