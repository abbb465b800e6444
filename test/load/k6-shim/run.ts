/**
 * The k6 emulator moved to test/support/k6-shim (the k6 tests of test/cli and test/load share it). bench/load-plans.ts
 * still imports it from here: remove this file once bench/ no longer imports test/.
 */
export * from '../../support/k6-shim/run.ts';
