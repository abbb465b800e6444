/** GET /v1/pets/{petId} (getPet, deprecated): one animal by id. */
import { jsonReply, petValue, unescapedNames } from '../reply.ts';
import { petIdRefusal } from './input-rules.ts';
import type { Handler } from './handler-context.ts';
import { leadingDigits } from '../held-out-faults.ts';
import { lookedUp } from '../held-out-faults-39.ts';
import { idLookedUp } from '../path-faults.ts';

export const getPet: Handler = (ctx) => {
  const { has } = ctx;
  const sent = ctx.params.petId ?? '';
  // Fault petid-leading-digits: "12.0" or "12abc" read as 12.
  const raw = leadingDigits(sent, has) ?? sent;
  const refused = petIdRefusal(raw, ctx);
  if (refused) return refused;
  if (!/^-?\d+$/.test(raw)) {
    return has('non-integer-id-500')
      ? ctx.error('internal_error')
      : ctx.error('invalid_parameter', `petId must be an integer, got ${JSON.stringify(raw)}`);
  }
  // Fault null-cached-lookup: the lookup goes through a cache that keeps "no such pet" too.
  let pet =
    lookedUp(ctx.h39, ctx.store, idLookedUp(BigInt(raw), ctx.store, has), has) ??
    (has('unknown-id-200') ? ctx.store.list(undefined, 1)[0] : undefined);
  // Fault get-other-pet: the pet stored after the one asked for, if any.
  if (pet && has('get-other-pet')) {
    const all = ctx.store.list();
    const asked = pet;
    pet = all[all.findIndex((p) => p.id === asked.id) + 1] ?? pet;
  }
  if (!pet) return ctx.error('pet_not_found', `no animal has id ${raw}`);
  if (ctx.probe) return undefined;
  // Fault get-truncates-long-names: getPet shows at most 100 characters of a name (createPet and listPets show it whole).
  // Fault get-tab-as-space: getPet shows a tab in a name as a space.
  const name = typeof pet.name === 'string' && has('get-tab-as-space') ? pet.name.replace(/\t/g, ' ') : pet.name;
  const shown = has('get-truncates-long-names') && typeof name === 'string' ? { ...pet, name: name.slice(0, 100) } : { ...pet, name };
  const reply = jsonReply(
    200,
    petValue(shown, {
      idAsString: has('id-as-string'),
      lossyIds: has('lossy-ids'),
      numericNames: has('name-numeric-json'),
      extra: ctx.variants.extraFields ? { retrievedAt: new Date().toISOString() } : undefined,
      omitZero: has('zero-values-omitted'),
    }),
  );
  return has('name-unescaped') ? unescapedNames(reply, [pet.name]) : reply;
};
