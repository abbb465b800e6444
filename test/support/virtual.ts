/** Moved to bench/support/virtual.ts, which the benchmarks share with the self-tests: re-exported here for the tests that import it. */
export * from '../../bench/support/virtual.ts';
