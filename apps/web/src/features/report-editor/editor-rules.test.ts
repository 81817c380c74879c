import { defaultPreferences, groupFlags, type TRole } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import { editorButtonsOf } from './editor-rules';
import { buildDetail, buildReport, buildVersion } from './report-editor-test-kit';

const me = 'doc@demo.local';
const flags = (disableReSignOffOfReport = false) => ({
  ...groupFlags(defaultPreferences()),
  disableReSignOffOfReport,
});
const buttons = (
  roles: TRole[],
  row: Parameters<typeof buildDetail>[0],
  opts: { main?: ReturnType<typeof buildReport> | null; blocked?: boolean; doctorEmail?: string } = {},
) =>
  editorButtonsOf({
    roles,
    flags: flags(opts.blocked),
    me,
    doctorEmail: opts.doctorEmail ?? me,
    row: buildDetail(row),
    main: opts.main ?? null,
  });

describe('editorButtonsOf: the buttons the server would accept (core reporting rules)', () => {
  it('gives the holding doctor Save and Sign off, nothing before the study is opened by them', () => {
    expect(buttons(['ROLE_DOCTOR'], { status: 'LOCKED', lockedBy: me })).toMatchObject({
      actor: 'DOCTOR',
      canSave: true,
      canSignOff: true,
      canAddendum: false,
      reSignOff: false,
      signOffRefusal: null,
    });
    expect(buttons(['ROLE_DOCTOR'], { status: 'LOCKED', lockedBy: 'other@demo.local' })).toMatchObject({
      canSave: false,
      canSignOff: false,
    });
  });

  it('gives a typist Save but never Sign off', () => {
    expect(
      buttons(
        ['ROLE_TYPIST'],
        { status: 'LOCKED', lockedBy: 'doc2@demo.local' },
        { doctorEmail: 'doc2@demo.local' },
      ),
    ).toMatchObject({ actor: 'TYPIST', canSave: true, canSignOff: false });
  });

  it('on a signed-off report: re-sign-off (unless disabled) and the addendum for its doctor, no plain save', () => {
    const main = buildReport([buildVersion({ kind: 'SIGN_OFF' })], { signedOffBy: me });
    const row = { status: 'SIGNED_OFF' as const, lockedBy: me, firstSignedOffAt: '2026-11-21T09:00:00.000Z' };
    expect(buttons(['ROLE_DOCTOR'], row, { main })).toMatchObject({
      canSave: false,
      canSignOff: true,
      canAddendum: true,
    });
    expect(buttons(['ROLE_DOCTOR'], row, { main, blocked: true })).toMatchObject({ canSignOff: false });
    const othersReport = buildReport([buildVersion()], { signedOffBy: 'other@demo.local' });
    expect(buttons(['ROLE_DOCTOR'], row, { main: othersReport }).canAddendum).toBe(false);
  });

  it('gives a verifier Save and Sign off only on a report waiting for verification', () => {
    const waiting = buildReport([buildVersion()], { awaitingVerification: true });
    expect(
      buttons(['ROLE_VERIFIER'], { status: 'REPORTED', lockedBy: 'doc@demo.local' }, { main: waiting }),
    ).toEqual({
      actor: 'VERIFIER',
      canSave: true,
      canSignOff: true,
      canAddendum: false,
      reSignOff: false,
      signOffRefusal: null,
    });
    expect(
      buttons(['ROLE_VERIFIER'], { status: 'REPORTED' }, { main: buildReport([buildVersion()]) }).actor,
    ).toBeNull();
  });

  it('gives read-only roles and center users no button', () => {
    for (const roles of [['ROLE_REFERRING_DOCTOR'], ['ROLE_AUDITOR'], ['ROLE_CENTER']] as TRole[][]) {
      expect(buttons(roles, { status: 'LOCKED', lockedBy: me })).toEqual({
        actor: null,
        canSave: false,
        canSignOff: false,
        canAddendum: false,
        reSignOff: false,
        signOffRefusal: null,
      });
    }
  });
});
