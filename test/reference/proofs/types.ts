import type { FaultName } from '../../../reference/faults.ts';
import type { AppOptions } from '../../../reference/options.ts';
import type { Srv } from '../helpers.ts';

/**
 * A proof of one fault mode: `holds` checks the behaviour the fault
 * claims to break; it must be true on the correct server and false with the fault.
 */
export interface Proof {
  fault: FaultName;
  /** Options of both servers (correct and faulty). */
  options?: AppOptions;
  holds: (s: Srv) => Promise<boolean>;
}
