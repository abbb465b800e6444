// Moved to bench/support/k6-emulator.mjs, which the benchmarks share with the self-tests: re-exported here for the files that import it.
export * from '../../../bench/support/k6-emulator.mjs';
