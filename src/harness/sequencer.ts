/**
 * The order of a Vitest conformance run: spec files by path, the exploration
 * phase last (it spends what budget the specs left). Vitest's own order depends
 * on earlier runs' durations; a run's order must not.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { specOrder } from './order.ts';

export class SpecSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return Promise.resolve([...files].sort((a, b) => specOrder(a.moduleId, b.moduleId)));
  }
}
