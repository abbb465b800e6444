/** The JSON Schema files of /schemas (PetStatus, NewPet, Pet, Pets, Error), as they are on disk. */
import petStatusSchema from '../../schemas/pet-status.json' with { type: 'json' };
import newPetSchema from '../../schemas/new-pet.json' with { type: 'json' };
import petSchema from '../../schemas/pet.json' with { type: 'json' };
import petsSchema from '../../schemas/pets.json' with { type: 'json' };
import errorSchema from '../../schemas/error.json' with { type: 'json' };

export type SchemaName = 'PetStatus' | 'NewPet' | 'Pet' | 'Pets' | 'Error';

export const SCHEMA_NAMES: readonly SchemaName[] = ['PetStatus', 'NewPet', 'Pet', 'Pets', 'Error'];

/** The schema files as they are on disk (for the OpenAPI document). */
export const RAW_SCHEMAS: Readonly<Record<SchemaName, Readonly<Record<string, unknown>>>> = {
  PetStatus: petStatusSchema,
  NewPet: newPetSchema,
  Pet: petSchema,
  Pets: petsSchema,
  Error: errorSchema,
};
