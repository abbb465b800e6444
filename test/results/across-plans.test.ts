/**
 * The run-level view of a run over several plans: each requirement at its worst
 * status over the plans (a pass on one plan never covers a gap or a failure on
 * another), the counts and the MUSTs not exercised from that, and waivers that
 * reach every plan's own status and outcome.
 */
import { describe, expect, it } from 'vitest';
import { applyWaivers } from '../../src/results/waivers.ts';
import { NOW } from '../support/report-fixtures.ts';
import { allPlansCertified, mixedPlans, planIn, threeOfFourCertified } from './plan-fixtures.ts';

const status = (r: ReturnType<typeof mixedPlans>, id: string) => r.requirements.find((q) => q.id === id)?.status;

describe('a run over several plans, at run level', () => {
  it('A MUST exercised on free but not on pro is not exercised for the run, with the plan and the reason.', () => {
    const r = threeOfFourCertified();
    const gaps = planIn(r, 'pro').notExercised.map((n) => n.id);
    expect(gaps.length).toBeGreaterThan(0);
    for (const id of gaps) {
      expect(status(r, id)).toBe('skip');
      expect(r.notExercised.find((n) => n.id === id)?.reason).toMatch(/^on plan pro: /);
    }
    expect(r.counts.skip).toBeGreaterThanOrEqual(gaps.length);
    expect(r.outcome).toBe('incomplete');
  });

  it('Every plan certified leaves the run certified with nothing not exercised.', () => {
    const r = allPlansCertified();
    expect(r.outcome).toBe('certified');
    expect(r.notExercised).toEqual([]);
  });

  it('A waiver applies on every plan: each waived plan is recomputed, and the run with it.', () => {
    const r = mixedPlans();
    const failed = planIn(r, 'business').requirements.filter((q) => q.status === 'fail' || q.status === 'warn');
    expect(failed.length).toBeGreaterThan(0);
    const waivers = failed.map((q) => ({ id: q.id, reason: 'known', expires: '2099-01-01' }));
    const w = applyWaivers(r, waivers, { now: NOW, allowMustWaivers: true });
    const business = planIn(w, 'business');
    for (const q of failed) expect(business.requirements.find((x) => x.id === q.id)?.status).toBe('waived');
    expect(business.outcome).not.toBe('not-conformant');
    expect(w.outcome).not.toBe('not-conformant');
  });
});
