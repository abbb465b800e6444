/**
 * A failure's kind, as the phase tells two findings apart: its requirement and title (its signature), the forms a
 * HTTP-EQUIVALENT-FORMS failure names, and whether two findings show the same failure. Pure, with no import: the
 * counterexample store reads it in the command's own process.
 */

/** What a failure's kind is read from. */
export type Kind = { requirement: string; title: string };

export const signature = (f: Kind): string => `${f.requirement} · ${f.title}`;

export const isProblem = (f: { outcome: string }) => f.outcome === 'fail' || f.outcome === 'warn';

/** The forms a HTTP-EQUIVALENT-FORMS failure names (its title's parentheses), else undefined. */
export const formsNamed = (f: Kind): string[] | undefined =>
  f.requirement === 'HTTP-EQUIVALENT-FORMS' ? /\(([^)]*)\)$/.exec(f.title)?.[1].split(', ') : undefined;

/**
 * Do two findings show the same failure? The same signature; or both the HTTP-EQUIVALENT-FORMS warning, whatever
 * forms each names (shrinking leaves out the forms a failure does not need: the title changes, the failure does not).
 */
export function sameFailure(a: Kind, b: Kind): boolean {
  return signature(a) === signature(b) || (formsNamed(a) !== undefined && formsNamed(b) !== undefined);
}
