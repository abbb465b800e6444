/** Moved to bench/support/temp.ts, which the benchmarks share with the self-tests: re-exported here for the tests that import it. */
export * from '../../bench/support/temp.ts';
