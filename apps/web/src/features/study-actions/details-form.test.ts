import { WORKLIST_MESSAGES, type TStudyDetailsFormContext } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { checkDetailsForm, detailsFieldErrorOf, detailsFormFromRow, type TDetailsForm } from './details-form';
import { buildStudyRow } from '../../test/study-row';

const context = (over: Partial<TStudyDetailsFormContext> = {}): TStudyDetailsFormContext => ({
  isSharingMode: false,
  isStudyTypeRequired: false,
  canEditHistory: true,
  canEditStudyType: true,
  sendsForReporting: false,
  ...over,
});

const row = buildStudyRow({ reportStudyPart: ['CT Chest'] });
const form = (over: Partial<TDetailsForm> = {}): TDetailsForm => ({ ...detailsFormFromRow(row), ...over });

describe('checkDetailsForm (spec-core §5 Edit details form)', () => {
  it('accepts the row as it is and leaves the study type out when unchanged', () => {
    const checked = checkDetailsForm(form(), row, context());
    expect(checked.ok).toBe(true);
    if (checked.ok) {
      expect(checked.request.reportParts).toBeUndefined();
      expect(checked.studyTypeChanged).toBe(false);
    }
  });

  it('sends the study types when they changed', () => {
    const checked = checkDetailsForm(form({ reportParts: ['CT Abdomen'] }), row, context());
    expect(checked.ok && checked.request.reportParts).toEqual(['CT Abdomen']);
    expect(checked.ok && checked.studyTypeChanged).toBe(true);
  });

  it('requires the patient fields and history unless sharing details before sending', () => {
    const empty = form({ patientName: '', history: '', studyName: ' ' });
    const checked = checkDetailsForm(empty, row, context());
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.errors.patientName).toBe('Patient name is required');
      expect(checked.errors.history).toBe('History is required');
      expect(checked.errors.studyName).toBe('Study name is required');
    }
    const sharing = checkDetailsForm(empty, row, context({ isSharingMode: true }));
    expect(sharing.ok).toBe(false);
    if (!sharing.ok) {
      expect(sharing.errors.patientName).toBeUndefined();
      // …but then a referring doctor is required, as an alert.
      expect(sharing.alert).toBe(WORKLIST_MESSAGES.pleaseSelectReferringDoctor);
    }
    expect(checkDetailsForm(empty, row, context({ isSharingMode: true }))).toMatchObject({ ok: false });
    expect(
      checkDetailsForm(
        form({ ...empty, referringDoctorNotAvailable: true }),
        row,
        context({ isSharingMode: true }),
      ).ok,
    ).toBe(true);
  });

  it("alerts 'Please select study type' when billing applies and the study has none", () => {
    const noParts = buildStudyRow({ reportStudyPart: [] });
    const checked = checkDetailsForm(
      detailsFormFromRow(noParts),
      noParts,
      context({ isStudyTypeRequired: true }),
    );
    expect(checked).toMatchObject({ ok: false, alert: 'Please select study type' });
  });

  it('keeps the limits: age 10, UHID 20, accession 40 characters; sex M or F', () => {
    const checked = checkDetailsForm(
      form({
        patientAge: '12345678901',
        uhid: 'u'.repeat(21),
        accessionNumber: 'a'.repeat(41),
        patientSex: 'O',
      }),
      row,
      context(),
    );
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.errors.patientAge).toMatch(/at most 10/);
      expect(checked.errors.uhid).toMatch(/at most 20/);
      expect(checked.errors.accessionNumber).toMatch(/at most 40/);
      expect(checked.errors.patientSex).toBeTruthy();
    }
  });

  it('requires a patient mobile of the pattern unless "Patient Number not available" is ticked', () => {
    expect(checkDetailsForm(form({ mobileNumber: '12345' }), row, context()).ok).toBe(false);
    expect(checkDetailsForm(form({ mobileNumber: '' }), row, context()).ok).toBe(false);
    expect(
      checkDetailsForm(form({ mobileNumber: '', patientNumberNotAvailable: true }), row, context()).ok,
    ).toBe(true);
  });

  it('does not require a history the user may not edit (SIGNED_OFF)', () => {
    expect(checkDetailsForm(form({ history: '' }), row, context({ canEditHistory: false })).ok).toBe(true);
  });
});

describe('detailsFormFromRow', () => {
  it('clears a sex other than M or F so that it is chosen again', () => {
    expect(detailsFormFromRow(buildStudyRow({ patientSex: 'O' })).patientSex).toBe('');
  });
});

describe('detailsFieldErrorOf', () => {
  it('reads the field a 400 names', () => {
    const body = {
      errorStatusCode: 400,
      errorDescription: 'uhid is too long',
      additionalInfo: 'uhid',
      txnId: 't',
    };
    const error = new ApiError(400, body, { kind: 'message', text: 'x' });
    expect(detailsFieldErrorOf(error)).toEqual({ uhid: 'uhid is too long' });
    expect(detailsFieldErrorOf(new ApiError(500, body, { kind: 'message', text: 'x' }))).toBeNull();
  });
});
