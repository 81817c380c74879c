import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import type { TReportStatus } from '../worklist/statuses.js';
import { REPORTING_MESSAGES as M } from './messages.js';
import {
  checkAddendum,
  checkReportHolder,
  checkReportWriter,
  checkSave,
  checkTypistDoctor,
  checkVerifierSave,
  hasReportContent,
  isReportReadOnly,
  needsVerification,
  reSignOffEffects,
  reportingActorOf,
  saveOutcome,
  statusAfterLock,
} from './rules.js';

const DOCTOR = 7;
const row = (
  over: Partial<{
    status: TReportStatus;
    assignedToUserId: number | null;
    lockedByUserId: number | null;
  }> = {},
) => ({
  status: 'HISTORY_CREATED' as TReportStatus,
  assignedToUserId: null,
  lockedByUserId: null,
  ...over,
});

describe('who writes', () => {
  it.each<[TRole[], boolean]>([
    [['ROLE_AUDITOR'], true],
    [['ROLE_REFERRING_DOCTOR', 'ROLE_CUSTOMER'], true],
    [['ROLE_VIEWER'], true],
    [['ROLE_LABS_SUPERVISOR'], true],
    [['ROLE_DOCTOR', 'ROLE_AUDITOR'], false],
    [['ROLE_CENTER'], false],
  ])('%j read-only: %s', (roles, readOnly) => {
    expect(isReportReadOnly(roles)).toBe(readOnly);
  });

  it('picks the doctor over the typist, the verifier only on a waiting report', () => {
    expect(reportingActorOf(['ROLE_DOCTOR', 'ROLE_TYPIST'], { awaitingVerification: false })).toBe('DOCTOR');
    expect(reportingActorOf(['ROLE_TYPIST'], { awaitingVerification: false })).toBe('TYPIST');
    expect(reportingActorOf(['ROLE_VERIFIER'], { awaitingVerification: false })).toBeNull();
    expect(reportingActorOf(['ROLE_VERIFIER', 'ROLE_DOCTOR'], { awaitingVerification: true })).toBe(
      'VERIFIER',
    );
    expect(reportingActorOf(['ROLE_AUDITOR'], { awaitingVerification: true })).toBeNull();
  });

  it('refuses read-only roles and non-reporters with 403', () => {
    expect(checkReportWriter(['ROLE_AUDITOR'], null)).toMatchObject({
      kind: 'FORBIDDEN',
      message: M.readOnly,
    });
    expect(checkReportWriter(['ROLE_ADMIN'], null)).toMatchObject({
      kind: 'FORBIDDEN',
      message: M.notReporter,
    });
    expect(checkReportWriter(['ROLE_DOCTOR'], 'DOCTOR')).toBeNull();
  });

  it('makes a typist choose a doctor of their map (spec-core §6 typist gate)', () => {
    expect(checkTypistDoctor({ doctorEmail: undefined, isMappedDoctor: false })).toMatchObject({
      kind: 'BAD_REQUEST',
      message: M.chooseDoctor,
      field: 'doctorEmail',
    });
    expect(checkTypistDoctor({ doctorEmail: 'd@x.y', isMappedDoctor: false })?.kind).toBe('FORBIDDEN');
    expect(checkTypistDoctor({ doctorEmail: 'd@x.y', isMappedDoctor: true })).toBeNull();
  });
});

describe('opening a study to report', () => {
  it('is free for the pool and the assignee, refused on another lock or assignee and on DELETED', () => {
    expect(checkReportHolder({ doctorUserId: DOCTOR, row: row() })).toBeNull();
    expect(checkReportHolder({ doctorUserId: DOCTOR, row: row({ assignedToUserId: DOCTOR }) })).toBeNull();
    expect(
      checkReportHolder({ doctorUserId: DOCTOR, row: row({ lockedByUserId: DOCTOR, assignedToUserId: 1 }) }),
    ).toBeNull();
    expect(checkReportHolder({ doctorUserId: DOCTOR, row: row({ lockedByUserId: 1 }) })?.message).toBe(
      M.lockedByOther,
    );
    expect(checkReportHolder({ doctorUserId: DOCTOR, row: row({ assignedToUserId: 1 }) })?.message).toBe(
      M.assignedToOther,
    );
    expect(checkReportHolder({ doctorUserId: DOCTOR, row: row({ status: 'DELETED' }) })?.kind).toBe(
      'CONFLICT',
    );
  });

  it.each<[TReportStatus, TReportStatus]>([
    ['CREATED', 'LOCKED'],
    ['HISTORY_CREATED', 'LOCKED'],
    ['LOCKED', 'LOCKED'],
    ['REPORTED', 'REPORTED'],
    ['DRAFTED', 'DRAFTED'],
    ['SIGNED_OFF', 'SIGNED_OFF'],
  ])('%s → %s', (from, to) => {
    expect(statusAfterLock(from)).toBe(to);
  });
});

describe('saving and signing off', () => {
  const facts = (
    status: TReportStatus,
    over: Partial<{ hasBeenSignedOff: boolean; awaitingVerification: boolean }> = {},
  ) => ({
    ...row({ status, lockedByUserId: DOCTOR }),
    hasBeenSignedOff: false,
    awaitingVerification: false,
    ...over,
  });
  const save = (
    status: TReportStatus,
    signOff: boolean,
    opts: {
      roles?: TRole[];
      actor?: 'DOCTOR' | 'TYPIST';
      blocked?: boolean;
      hasBeenSignedOff?: boolean;
    } = {},
  ) =>
    checkSave({
      roles: opts.roles ?? ['ROLE_DOCTOR'],
      actor: opts.actor ?? 'DOCTOR',
      flags: { disableReSignOffOfReport: opts.blocked ?? false },
      doctorUserId: DOCTOR,
      row: facts(status, { hasBeenSignedOff: opts.hasBeenSignedOff ?? status === 'SIGNED_OFF' }),
      signOff,
    });

  it('needs the study opened by the doctor first', () => {
    expect(save('HISTORY_CREATED', false)?.message).toBe(M.notOpened);
    expect(
      checkSave({
        roles: ['ROLE_DOCTOR'],
        actor: 'DOCTOR',
        flags: { disableReSignOffOfReport: false },
        doctorUserId: DOCTOR,
        row: { ...facts('LOCKED'), lockedByUserId: null },
        signOff: false,
      })?.kind,
    ).toBe('CONFLICT');
    expect(save('LOCKED', false)).toBeNull();
    expect(save('LOCKED', true)).toBeNull();
  });

  it('lets a typist save but not sign off', () => {
    expect(save('LOCKED', false, { roles: ['ROLE_TYPIST'], actor: 'TYPIST' })).toBeNull();
    expect(save('LOCKED', true, { roles: ['ROLE_TYPIST'], actor: 'TYPIST' })?.message).toBe(
      M.typistCannotSignOff,
    );
  });

  it('keeps a signed-off report signed off: only a re-sign-off, which the switch may block', () => {
    expect(save('SIGNED_OFF', false)?.message).toBe(M.signedOffNeedsSignOff);
    expect(save('SIGNED_OFF', true)).toBeNull();
    expect(save('SIGNED_OFF', true, { blocked: true })?.message).toBe(M.reSignOffDisabled);
    // REPORTED is blocked for a sole doctor only when it is a re-sign-off (spec-core §4).
    expect(save('REPORTED', true, { blocked: true })).toBeNull();
    expect(save('REPORTED', true, { blocked: true, hasBeenSignedOff: true })?.message).toBe(
      M.reSignOffDisabled,
    );
    expect(
      save('REPORTED', true, { blocked: true, hasBeenSignedOff: true, roles: ['ROLE_DOCTOR', 'ROLE_ADMIN'] }),
    ).toBeNull();
  });

  it('gives REPORTED, DRAFTED for a typist with the switch, SIGNED_OFF, or the verifier', () => {
    const flags = { enableDraftedForTypist: true };
    const off = { enableDraftedForTypist: false };
    const outcome = (
      actor: 'DOCTOR' | 'TYPIST' | 'VERIFIER',
      f: typeof flags,
      signOff: boolean,
      verificationApplies = false,
    ) => saveOutcome({ actor, flags: f, signOff, verificationApplies });
    expect(outcome('DOCTOR', flags, false)).toEqual({
      status: 'REPORTED',
      awaitingVerification: false,
      signsOff: false,
    });
    expect(outcome('TYPIST', flags, false).status).toBe('DRAFTED');
    expect(outcome('TYPIST', off, false).status).toBe('REPORTED');
    expect(outcome('DOCTOR', off, true)).toEqual({
      status: 'SIGNED_OFF',
      awaitingVerification: false,
      signsOff: true,
    });
    expect(outcome('DOCTOR', off, true, true)).toEqual({
      status: 'REPORTED',
      awaitingVerification: true,
      signsOff: false,
    });
    expect(outcome('VERIFIER', off, false)).toEqual({
      status: 'REPORTED',
      awaitingVerification: true,
      signsOff: false,
    });
    expect(outcome('VERIFIER', off, true)).toEqual({
      status: 'SIGNED_OFF',
      awaitingVerification: false,
      signsOff: true,
    });
  });

  it("answers the spec's alert on a re-sign-off and marks a printed one", () => {
    expect(reSignOffEffects({ signsOff: true, hasBeenSignedOff: false, isPrinted: true })).toEqual({
      alert: null,
      signedOffAfterPrint: false,
    });
    expect(reSignOffEffects({ signsOff: true, hasBeenSignedOff: true, isPrinted: false })).toEqual({
      alert: 'Report has been Signed Off again, please ask center to re-print it.',
      signedOffAfterPrint: false,
    });
    expect(
      reSignOffEffects({ signsOff: true, hasBeenSignedOff: true, isPrinted: true }).signedOffAfterPrint,
    ).toBe(true);
    expect(reSignOffEffects({ signsOff: false, hasBeenSignedOff: true, isPrinted: true }).alert).toBeNull();
  });

  it('needs content to sign off', () => {
    expect(hasReportContent('<p> &nbsp;</p>')).toBe(false);
    expect(hasReportContent('<p>x</p>')).toBe(true);
    expect(hasReportContent('<p><img src="/api/assets/a"></p>')).toBe(true);
  });
});

describe('verification', () => {
  const settings = {
    needVerification: true,
    selectAllDoctorsAndCenters: false,
    centersAndDoctorsList: [{ centerEmail: 'c@x.y', doctorEmail: 'd@x.y' }],
  };
  it('applies to a listed pair, to everyone with selectAllDoctorsAndCenters, never when off', () => {
    expect(needsVerification(settings, { centerEmail: 'C@x.y', doctorEmail: 'd@x.y' })).toBe(true);
    expect(needsVerification(settings, { centerEmail: 'c@x.y', doctorEmail: 'e@x.y' })).toBe(false);
    expect(
      needsVerification(
        { ...settings, selectAllDoctorsAndCenters: true },
        { centerEmail: 'z', doctorEmail: 'z' },
      ),
    ).toBe(true);
    expect(
      needsVerification(
        { ...settings, needVerification: false },
        { centerEmail: 'c@x.y', doctorEmail: 'd@x.y' },
      ),
    ).toBe(false);
  });
  it('lets a verifier act on a waiting REPORTED report only', () => {
    expect(
      checkVerifierSave({
        roles: ['ROLE_VERIFIER'],
        row: { status: 'REPORTED', awaitingVerification: true },
      }),
    ).toBeNull();
    expect(
      checkVerifierSave({
        roles: ['ROLE_VERIFIER'],
        row: { status: 'REPORTED', awaitingVerification: false },
      })?.message,
    ).toBe(M.nothingToVerify);
    expect(
      checkVerifierSave({ roles: ['ROLE_DOCTOR'], row: { status: 'REPORTED', awaitingVerification: true } })
        ?.kind,
    ).toBe('FORBIDDEN');
  });
});

describe('addendum', () => {
  const input = (
    status: TReportStatus,
    roles: TRole[] = ['ROLE_DOCTOR'],
    signedOffByUserId: number | null = DOCTOR,
  ) => ({
    roles,
    userId: DOCTOR,
    row: { status },
    signedOffByUserId,
  });
  it('is for the signing doctor on SIGNED_OFF only', () => {
    expect(checkAddendum(input('SIGNED_OFF'))).toBeNull();
    expect(checkAddendum(input('REPORTED'))?.message).toBe(M.addendumNeedsSignOff);
    expect(checkAddendum(input('SIGNED_OFF', ['ROLE_DOCTOR'], 1))?.message).toBe(M.addendumNotYours);
    expect(checkAddendum(input('SIGNED_OFF', ['ROLE_TYPIST']))?.kind).toBe('FORBIDDEN');
    expect(checkAddendum(input('SIGNED_OFF', ['ROLE_AUDITOR']))?.message).toBe(M.readOnly);
  });
});
