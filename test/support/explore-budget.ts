/**
 * The exploration budget of a run whose test is about something else than the exploration phase (the phase's own
 * tests are in test/explore, on the embedded default): each of its parts still runs — baselines, coverage cases,
 * generated requests, the stateful round trips — so the run is whole (its traffic, its report's lines), at a fraction
 * of the CPU time of the embedded default's 400 requests, which are most of an in-process run's CPU time (the specs
 * send about 100) and a second or two of each command-line run's.
 */
export const SMALL_EXPLORE_BUDGET = 40;

/** The same, as the variable a command-line run reads. */
export const SMALL_EXPLORATION = { ANIMAL_STORE_EXPLORE_BUDGET: String(SMALL_EXPLORE_BUDGET) };
