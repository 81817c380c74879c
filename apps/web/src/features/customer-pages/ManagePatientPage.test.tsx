import { CUSTOMER_PAGE_MESSAGES as M, type TCenterPatient } from '@radflow/core';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { MANAGE_PATIENT_LABELS as L, ManagePatientPage } from './ManagePatientPage';

const SLOW = { timeout: 20_000 };
configure({ asyncUtilTimeout: 10_000 });

const patient = (over: Partial<TCenterPatient> = {}): TCenterPatient => ({
  reportStatusId: 7,
  studyInstanceUid: '1.2.3.7',
  patientName: 'ZARA KHAN',
  patientId: 'P-7',
  studyName: 'MR BRAIN',
  modality: 'MR',
  studyDate: '2026-03-10',
  status: 'SIGNED_OFF',
  isSignedOff: true,
  mobileNumber: '9876543210',
  sentCount: 0,
  lastSentAt: null,
  ...over,
});

const open = (patients: TCenterPatient[], extra = {}) => {
  const api = fakeApi({
    ...sessionHandlers(buildUser(['ROLE_CENTER_CUSTOMER'], { centerId: 1 })),
    'GET /api/manage-patient/patients': { body: { patients, limit: 100 } },
    ...extra,
  });
  renderScreen(<ManagePatientPage />, { path: '/manage-patient' });
  return api;
};

describe('/manage-patient', () => {
  it('says "No patients yet" for an empty center', SLOW, async () => {
    open([]);
    expect(await screen.findByText(M.noPatients)).toBeTruthy();
  });

  it('sends the signed-off report to the patient, and not an unsigned one', SLOW, async () => {
    const api = open([patient(), patient({ reportStatusId: 8, status: 'LOCKED', isSignedOff: false })], {
      'POST /api/manage-patient/send/7': {
        body: {
          shareLink: 'https://x/share?link=abc',
          sharedNumbers: ['9876543210'],
          sharedEmails: [],
          channels: ['SMS', 'WHATSAPP'],
        },
      },
    });
    const table = await screen.findByRole('table', { name: 'Patients' });
    expect(within(table).getAllByText('9876543210').length).toBeGreaterThan(0);
    const sends = within(table).getAllByRole('button', { name: `${L.send} to ZARA KHAN` });
    expect(sends.map((b) => (b as HTMLButtonElement).disabled)).toEqual([false, true]);
    fireEvent.click(sends[0]!);
    expect(await screen.findByText(L.sentInfo)).toBeTruthy();
    expect(api.calls('POST', '/api/manage-patient/send/7')).toHaveLength(1);
  });

  it('shows what was sent and when', SLOW, async () => {
    open([patient({ sentCount: 2, lastSentAt: '2026-03-10T09:00:00.000Z' })], {
      'GET /api/manage-patient/messages/7': {
        body: [
          {
            id: 2,
            channel: 'WHATSAPP',
            recipient: '9876543210',
            status: 'PENDING',
            sentAt: '2026-03-10T09:00:00.000Z',
            failureReason: null,
            attachments: [],
          },
          {
            id: 1,
            channel: 'SMS',
            recipient: '9876543210',
            status: 'PENDING',
            sentAt: '2026-03-10T09:00:00.000Z',
            failureReason: null,
            attachments: [],
          },
        ],
      },
    });
    expect(await screen.findByRole('button', { name: `${L.resend} to ZARA KHAN` })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: `${L.history} to ZARA KHAN` }));
    const list = await screen.findByRole('table', { name: 'Messages sent' });
    expect(within(list).getByText('WhatsApp')).toBeTruthy();
    expect(within(list).getByText('SMS')).toBeTruthy();
  });

  it('corrects the mobile against the number shown, and shows a conflict', SLOW, async () => {
    let attempt = 0;
    const api = open([patient()], {
      'POST /api/manage-patient/mobile/7': () => {
        attempt += 1;
        return attempt === 1
          ? { status: 409, body: errorBody(409, M.mobileChanged) }
          : { body: { reportStatusId: 7, mobileNumber: '9123456780' } };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: `${L.editMobile} of ZARA KHAN` }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText(L.mobileLabel);
    fireEvent.change(input, { target: { value: '12345' } });
    expect(within(dialog).getByText(L.mobileInvalid)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: L.save }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(input, { target: { value: '9123456780' } });
    fireEvent.click(within(dialog).getByRole('button', { name: L.save }));
    expect(await screen.findByText(new RegExp(M.mobileChanged.slice(0, 30)))).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: L.save }));
    expect(await screen.findByText(L.mobileSaved)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST', '/api/manage-patient/mobile/7').map((c) => c.json())).toEqual([
      { mobileNumber: '9123456780', previousMobileNumber: '9876543210' },
      { mobileNumber: '9123456780', previousMobileNumber: '9876543210' },
    ]);
  });
});
