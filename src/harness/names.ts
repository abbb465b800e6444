/**
 * The name prefix of every pet the suite creates (ANIMAL_STORE_NAME_PREFIX /
 * --name-prefix), so they can be found and removed later. The session sets it
 * from the configuration.
 */
let prefix = 'animal-store-conformance-';

export function namePrefix(): string {
  return prefix;
}

export function setNamePrefix(p: string): void {
  prefix = p;
}
