import { describe, expect, it } from 'vitest';
import {
  type TForecastDoctor,
  type TForecastStudy,
  canSeeTurnaroundAtRisk,
  compareReadingOrder,
  forecastTurnaround,
} from './forecast.js';

const now = new Date('2026-06-01T10:00:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000).toISOString();
const inMinutes = (m: number) => new Date(now.getTime() + m * 60_000);
const LIMIT = 120;

/** An open study uploaded `uploadedAgo` minutes ago (deadline = LIMIT − uploadedAgo from now). */
const study = (id: number, uploadedAgo: number, over: Partial<TForecastStudy> = {}): TForecastStudy => ({
  id,
  urgent: false,
  createdAt: minutesAgo(uploadedAgo + 5),
  firstUploadCompletedAt: minutesAgo(uploadedAgo),
  doctorId: 1,
  ...over,
});
const doctor = (id: number, minutesPerReport: number, online = true): TForecastDoctor => ({
  id,
  minutesPerReport,
  online,
});
const run = (studies: TForecastStudy[], doctors: TForecastDoctor[]) =>
  new Map(forecastTurnaround({ studies, doctors, limitMinutes: LIMIT, now }).map((f) => [f.id, f]));

describe('forecastTurnaround (issue 24 §4)', () => {
  it('forecasts each study after those before it in the queue, at the doctor pace', () => {
    const f = run([study(1, 30), study(2, 20), study(3, 10)], [doctor(1, 20)]);
    expect([1, 2, 3].map((id) => f.get(id)!.queuePosition)).toEqual([1, 2, 3]);
    expect(f.get(3)!.forecastFinish).toEqual(inMinutes(60));
    expect(f.get(3)!.deadline).toEqual(inMinutes(110));
    expect(f.get(3)!.timeLeftMs).toBe(110 * 60_000);
    expect([...f.values()].map((x) => x.state)).toEqual(['ON_TRACK', 'ON_TRACK', 'ON_TRACK']);
  });

  it('is at risk before the deadline when the forecast is later, not at exactly the deadline', () => {
    // doctor at 30 min/report; 3rd in queue finishes in 90 min
    const atLimit = run([study(1, 50), study(2, 40), study(3, 30)], [doctor(1, 30)]); // deadline in 90
    expect(atLimit.get(3)).toMatchObject({ state: 'ON_TRACK', forecastFinish: inMinutes(90) });
    const oneOver = run([study(1, 50), study(2, 40), study(3, 31)], [doctor(1, 30)]); // deadline in 89
    expect(oneOver.get(3)).toMatchObject({ state: 'AT_RISK', timeLeftMs: 89 * 60_000 });
    expect(oneOver.get(2)!.state).toBe('ON_TRACK');
  });

  it('puts urgent studies first, then the oldest', () => {
    const studies = [study(1, 100), study(2, 10, { urgent: true }), study(3, 50)];
    const f = run(studies, [doctor(1, 40)]);
    expect([2, 1, 3].map((id) => f.get(id)!.queuePosition)).toEqual([1, 2, 3]);
    // the oldest is now second: 80 min against 20 min left
    expect(f.get(1)!.state).toBe('AT_RISK');
    expect([...studies].sort(compareReadingOrder).map((s) => s.id)).toEqual([2, 1, 3]);
  });

  it('counts from creation when the first upload has not completed', () => {
    const f = run(
      [study(1, 0, { createdAt: minutesAgo(100), firstUploadCompletedAt: null })],
      [doctor(1, 30)],
    );
    expect(f.get(1)).toMatchObject({ deadline: inMinutes(20), state: 'AT_RISK' });
  });

  it('is breached once past the limit (strictly), whatever the forecast', () => {
    const f = run([study(1, LIMIT), study(2, LIMIT + 1, { doctorId: 2 })], [doctor(1, 1), doctor(2, 1)]);
    expect(f.get(1)).toMatchObject({ state: 'AT_RISK', timeLeftMs: 0 }); // at the limit, finish in 1 min
    expect(f.get(2)).toMatchObject({ state: 'BREACHED', timeLeftMs: -60_000 });
  });

  it('suggests the online doctor who would finish it first, never an offline one', () => {
    const studies = [
      study(1, 100), // doctor 1 (60 min/report): finish in 60, deadline in 20
      study(2, 10, { doctorId: 2 }),
      study(3, 10, { doctorId: 3 }),
      study(4, 5, { doctorId: 3 }),
    ];
    // doctor 2: one study (newer) → #1 in 10 min; doctor 3 (faster, offline) would be 2 min
    const f = run(studies, [doctor(1, 60), doctor(2, 10), doctor(3, 2, false), doctor(4, 15)]);
    expect(f.get(1)).toMatchObject({
      state: 'AT_RISK',
      suggestion: { doctorId: 2, forecastFinish: inMinutes(10) },
    });
  });

  it('puts the study in its reading-order place in the suggested queue, and breaks ties by queue length', () => {
    const studies = [
      study(1, 110), // doctor 1 at 60/report: at risk
      study(2, 115, { doctorId: 2 }), // older: ahead of study 1 at doctor 2
      study(3, 5, { doctorId: 2 }), // newer: behind it
      study(4, 115, { doctorId: 3 }),
    ];
    const f = run(studies, [doctor(1, 60), doctor(2, 4), doctor(3, 4)]);
    // doctor 2 and 3 both finish it 2nd (8 min); doctor 3 has the shorter queue
    expect(f.get(1)!.suggestion).toEqual({ doctorId: 3, forecastFinish: inMinutes(8) });
  });

  it('suggests nobody when no one would finish it sooner, and nothing for a study on track', () => {
    const f = run([study(1, 110), study(2, 10)], [doctor(1, 15), doctor(2, 30)]);
    expect(f.get(1)).toMatchObject({ state: 'AT_RISK', forecastFinish: inMinutes(15), suggestion: null });
    expect(f.get(2)).toMatchObject({ state: 'ON_TRACK', suggestion: null });
  });

  it('forecasts an unassigned study as given to its suggested doctor; with nobody online it is at risk', () => {
    const unassigned = study(1, 100, { doctorId: null });
    expect(run([unassigned], [doctor(2, 30)]).get(1)).toMatchObject({
      state: 'AT_RISK',
      queuePosition: null,
      forecastFinish: inMinutes(30),
      suggestion: { doctorId: 2 },
    });
    expect(run([unassigned], [doctor(2, 10)]).get(1)).toMatchObject({ state: 'ON_TRACK', suggestion: null });
    expect(run([unassigned], [doctor(2, 10, false)]).get(1)).toMatchObject({
      state: 'AT_RISK',
      forecastFinish: null,
      suggestion: null,
    });
    // a doctor no longer among the group's doctors reads nothing: as unassigned
    expect(run([study(1, 100, { doctorId: 9 })], [doctor(2, 10)]).get(1)!.queuePosition).toBeNull();
  });

  it('leaves out a study whose dates do not parse', () => {
    expect(run([study(1, 10, { createdAt: 'x', firstUploadCompletedAt: null })], [doctor(1, 5)]).size).toBe(
      0,
    );
  });
});

describe('canSeeTurnaroundAtRisk', () => {
  it('is for those who may assign', () => {
    expect(canSeeTurnaroundAtRisk(['ROLE_ASSIGNOR'])).toBe(true);
    expect(canSeeTurnaroundAtRisk(['ROLE_ADMIN'])).toBe(true);
    expect(canSeeTurnaroundAtRisk(['ROLE_DOCTOR'])).toBe(false);
    expect(canSeeTurnaroundAtRisk(['ROLE_CENTER'])).toBe(false);
  });
});
