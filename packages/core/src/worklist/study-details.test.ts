import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import { ZUpdateStudyDetailsRequest, type TUpdateStudyDetailsInput } from './study-actions-schemas.js';
import { WORKLIST_MESSAGES } from './messages.js';
import { REPORT_STATUSES } from './statuses.js';
import {
  INVALID_PATIENT_MOBILE_MESSAGE,
  type TStudyDetailsFormContext,
  checkStudyDetailsForm,
  studyDetailsFormContext,
} from './study-details.js';

const complete: TUpdateStudyDetailsInput = {
  patientName: 'ROY^ANNA',
  patientAge: '034Y',
  patientId: 'P-1',
  patientSex: 'F',
  studyName: 'CT HEAD',
  referringPhysicianName: 'Dr Rao',
  history: 'Headache',
  mobileNumber: '9876543210',
};
const form = (over: Partial<TUpdateStudyDetailsInput> = {}) =>
  ZUpdateStudyDetailsRequest.parse({ ...complete, ...over });

const plain: TStudyDetailsFormContext = {
  isSharingMode: false,
  isStudyTypeRequired: false,
  canEditHistory: true,
  canEditStudyType: true,
  sendsForReporting: false,
};
const fields = (issues: ReturnType<typeof checkStudyDetailsForm>) => issues.map((i) => i.field);

describe('ZUpdateStudyDetailsRequest (spec-core §5 lengths and sex options)', () => {
  it.each([
    ['patientAge', '12345678901'],
    ['uhid', 'x'.repeat(21)],
    ['accessionNumber', 'x'.repeat(41)],
    ['patientSex', 'O'],
  ])('refuses %s = %s, naming the field', (field, value) => {
    const parsed = ZUpdateStudyDetailsRequest.safeParse({ ...complete, [field]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual([field]);
  });
  it('accepts the limits themselves', () => {
    const ok = {
      ...complete,
      patientAge: '1234567890',
      uhid: 'x'.repeat(20),
      accessionNumber: 'x'.repeat(40),
    };
    expect(ZUpdateStudyDetailsRequest.safeParse(ok).success).toBe(true);
  });
});

describe('checkStudyDetailsForm (spec-core §5 Edit details form)', () => {
  it('accepts a complete form', () => {
    expect(checkStudyDetailsForm(form(), plain)).toEqual([]);
  });

  it('requires patient name, age, id, sex, study name, referring physician and history', () => {
    const empty = form({
      patientName: ' ',
      patientAge: '',
      patientId: '',
      patientSex: '',
      studyName: '',
      referringPhysicianName: '',
      history: '',
    });
    expect(fields(checkStudyDetailsForm(empty, plain))).toEqual([
      'patientName',
      'patientAge',
      'patientId',
      'patientSex',
      'studyName',
      'referringPhysicianName',
      'history',
    ]);
  });

  it('does not require the history when the field is disabled (SIGNED_OFF)', () => {
    expect(checkStudyDetailsForm(form({ history: '' }), { ...plain, canEditHistory: false })).toEqual([]);
  });

  it('requires none of them in the sharing mode, but a referring or consulting doctor', () => {
    const sharing = { ...plain, isSharingMode: true };
    const bare = form({ patientName: '', patientAge: '', patientId: '', patientSex: '', history: '' });
    expect(checkStudyDetailsForm(bare, sharing)).toEqual([
      { field: 'referringDoctorEmail', message: WORKLIST_MESSAGES.pleaseSelectReferringDoctor },
    ]);
    expect(checkStudyDetailsForm(form({ ...bare, referringDoctorEmail: 'ref@x.in' }), sharing)).toEqual([]);
    expect(checkStudyDetailsForm(form({ ...bare, consultingDoctorEmails: ['c@x.in'] }), sharing)).toEqual([]);
    expect(checkStudyDetailsForm(form({ ...bare, referringDoctorNotAvailable: true }), sharing)).toEqual([]);
    expect(checkStudyDetailsForm(bare, sharing, { studyParts: [], hasReferringDoctor: true })).toEqual([]);
  });

  it.each(['', '5876543210', '987654321', '98765432100', 'abcdefghij'])(
    'refuses the patient mobile %j unless "Patient Number not available"',
    (mobileNumber) => {
      expect(checkStudyDetailsForm(form({ mobileNumber }), plain)).toEqual([
        { field: 'mobileNumber', message: INVALID_PATIENT_MOBILE_MESSAGE },
      ]);
      expect(checkStudyDetailsForm(form({ mobileNumber, patientNumberNotAvailable: true }), plain)).toEqual(
        [],
      );
    },
  );

  it.each(['6', '7', '8', '9'])('accepts a mobile starting %s', (first) => {
    expect(checkStudyDetailsForm(form({ mobileNumber: `${first}123456789` }), plain)).toEqual([]);
  });

  it("asks 'Please select study type' when required and neither the form nor the row has one", () => {
    const required = { ...plain, isStudyTypeRequired: true };
    expect(checkStudyDetailsForm(form(), required)).toEqual([
      { field: 'reportParts', message: 'Please select study type' },
    ]);
    expect(
      checkStudyDetailsForm(form({ reportParts: [] }), required, {
        studyParts: ['CT Head'],
        hasReferringDoctor: false,
      }),
    ).toHaveLength(1);
    expect(checkStudyDetailsForm(form({ reportParts: ['CT Head'] }), required)).toEqual([]);
    expect(
      checkStudyDetailsForm(form(), required, { studyParts: ['CT Head'], hasReferringDoctor: false }),
    ).toEqual([]);
  });
});

describe('studyDetailsFormContext', () => {
  const flags = { needBilling: false, sharingDetailBeforeSend: false };
  it.each<[TRole[], boolean]>([
    [['ROLE_CENTER_CUSTOMER'], true],
    [['ROLE_CENTER'], false],
    [['ROLE_ADMIN'], false],
  ])('sharing mode with sharingDetailBeforeSend for %j → %s', (roles, sharing) => {
    const on = { ...flags, sharingDetailBeforeSend: true };
    expect(studyDetailsFormContext({ roles, flags: on, row: { status: 'CREATED' } }).isSharingMode).toBe(
      sharing,
    );
    expect(studyDetailsFormContext({ roles, flags, row: { status: 'CREATED' } }).isSharingMode).toBe(false);
  });

  it('requires a study type with needBilling or for a tele-radiology user', () => {
    const row = { status: 'CREATED' as const };
    expect(studyDetailsFormContext({ roles: ['ROLE_CENTER'], flags, row }).isStudyTypeRequired).toBe(false);
    expect(
      studyDetailsFormContext({ roles: ['ROLE_CENTER'], flags: { ...flags, needBilling: true }, row })
        .isStudyTypeRequired,
    ).toBe(true);
    expect(studyDetailsFormContext({ roles: ['ROLE_TELE_RADIOLOGY'], flags, row }).isStudyTypeRequired).toBe(
      true,
    );
  });

  it.each(REPORT_STATUSES)('a center user on %s: history, study type and send-for-reporting', (status) => {
    const context = studyDetailsFormContext({ roles: ['ROLE_CENTER'], flags, row: { status } });
    expect(context.canEditHistory).toBe(status !== 'SIGNED_OFF' && status !== 'DELETED');
    expect(context.canEditStudyType).toBe(!['SIGNED_OFF', 'LOCKED', 'DELETED'].includes(status));
    expect(context.sendsForReporting).toBe(status === 'CREATED');
  });
});
