import { SHARE_MESSAGES, type TSharePage, type TShareSeries } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { SharePage } from './SharePage';

const LINK = 'tok_ABCDEFGHIJKLMNOPQRSTUVWX';
const SLOW = { timeout: 20_000 };

const errorBody = (status: number, text: string, additionalInfo: string | null = null) => ({
  status,
  body: { errorStatusCode: status, errorDescription: text, additionalInfo, txnId: 't-1' },
});

const buildPage = (over: Partial<TSharePage> = {}): TSharePage => ({
  patientName: 'ASHA SHARMA',
  patientId: 'P-77',
  patientSex: 'F',
  patientAge: '42Y',
  studyName: 'MRI BRAIN',
  modality: 'MR',
  studyDate: '2026-01-05',
  center: 'Demo Imaging Center',
  referringPhysician: 'Dr Mehta',
  isReportReady: true,
  reports: [
    {
      name: 'MRI Brain',
      content: '<p>No acute <strong>bleed</strong>.</p>',
      isAddendum: false,
      doctorName: 'Dr Rao',
      signature: { name: 'Dr Rao, MD', imageUrl: '/api/assets/sig1', signedOffAt: '2026-01-05T10:00:00Z' },
    },
  ],
  hasImages: false,
  expiresAt: null,
  displayTimeZone: 'Asia/Kolkata',
  ...over,
});

const openShare = () => renderScreen(<SharePage />, { path: `/share?link=${LINK}`, route: '/share' });

describe('SharePage', () => {
  it('asks for the code, shows a wrong one, opens the report with the right one', SLOW, async () => {
    let verified = false;
    const api = fakeApi({
      [`GET /api/share/${LINK}`]: () =>
        verified ? { body: buildPage() } : errorBody(401, SHARE_MESSAGES.codeRequired, '+91 ******1234'),
      [`POST /api/share/${LINK}/code`]: { body: { mobile: '+91 ******1234', expiresInSeconds: 300 } },
      [`POST /api/share/${LINK}/verify`]: (request) => {
        if (request.json<{ code: string }>().code !== '246810')
          return errorBody(401, SHARE_MESSAGES.codeWrong);
        verified = true;
        return { body: { verified: true } };
      },
    });
    openShare();
    const step = await screen.findByRole('region', { name: 'This report is protected' });
    expect(within(step).getByText('+91 ******1234')).toBeTruthy();
    // Nothing is sent until the visitor asks.
    expect(api.calls('POST', `/api/share/${LINK}/code`)).toHaveLength(0);

    fireEvent.click(within(step).getByRole('button', { name: 'Send code' }));
    expect(await within(step).findByText('A code was sent to +91 ******1234.')).toBeTruthy();
    const field = within(step).getByRole('textbox', { name: 'Code' });

    fireEvent.change(field, { target: { value: '12' } });
    fireEvent.click(within(step).getByRole('button', { name: 'Open report' }));
    expect(await within(step).findByText('The code is 6 digits')).toBeTruthy();
    expect(api.calls('POST', `/api/share/${LINK}/verify`)).toHaveLength(0);

    fireEvent.change(field, { target: { value: '111111' } });
    fireEvent.click(within(step).getByRole('button', { name: 'Open report' }));
    expect(await within(step).findByText(SHARE_MESSAGES.codeWrong)).toBeTruthy();

    fireEvent.click(within(step).getByRole('button', { name: 'Resend code' }));
    await waitFor(() => expect(api.calls('POST', `/api/share/${LINK}/code`)).toHaveLength(2));

    fireEvent.change(field, { target: { value: '246810' } });
    fireEvent.click(within(step).getByRole('button', { name: 'Open report' }));
    expect(await screen.findByRole('heading', { name: 'ASHA SHARMA' })).toBeTruthy();
    const report = screen.getByRole('region', { name: 'Report' });
    expect(within(report).getByText('bleed').tagName).toBe('STRONG');
    expect(within(report).getByText(/Signed by Dr Rao, MD/)).toBeTruthy();
    expect(within(report).getByRole('link', { name: 'Download PDF' }).getAttribute('href')).toBe(
      `/api/share/${LINK}/report.pdf`,
    );
  });

  it("gives the sign-off and the link's end in the group's display time zone, labelled", SLOW, async () => {
    fakeApi({
      [`GET /api/share/${LINK}`]: {
        body: buildPage({ displayTimeZone: 'Europe/Berlin', expiresAt: '2026-07-01T08:00:00Z' }),
      },
    });
    openShare();
    const report = await screen.findByRole('region', { name: 'Report' });
    // 10:00 UTC in January is 11:00 in Berlin; 08:00 UTC in July is 10:00 (summer time).
    expect(within(report).getByText(/Signed by Dr Rao, MD/).textContent).toContain(
      '2026-01-05 11:00:00 UTC+01:00',
    );
    expect(screen.getByText('This link opens until 2026-07-01 10:00:00 UTC+02:00.')).toBeTruthy();
  });

  it('says when the link has expired or is not valid', SLOW, async () => {
    fakeApi({ [`GET /api/share/${LINK}`]: errorBody(410, SHARE_MESSAGES.linkExpired) });
    openShare();
    expect(await screen.findByText('This link has expired')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Report' })).toBeNull();
  });

  it('an unknown link', SLOW, async () => {
    fakeApi({});
    openShare();
    expect(await screen.findByText(SHARE_MESSAGES.linkNotFound)).toBeTruthy();
  });

  it('a study not yet signed off: the facts and "The report is not ready yet", no PDF', SLOW, async () => {
    fakeApi({ [`GET /api/share/${LINK}`]: { body: buildPage({ isReportReady: false, reports: [] }) } });
    openShare();
    expect(await screen.findByText('The report is not ready yet')).toBeTruthy();
    expect(screen.getByText('MRI BRAIN')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download PDF' })).toBeNull();
  });

  it('scrolls the frames of a series with the arrow keys and switches series', SLOW, async () => {
    const series: TShareSeries[] = [
      {
        seriesUid: '1.2.1',
        seriesNumber: 1,
        modality: 'MR',
        description: 'AX T2',
        frames: [
          { sopUid: '1.2.1.1', frame: 1 },
          { sopUid: '1.2.1.2', frame: 1 },
          { sopUid: '1.2.1.3', frame: 1 },
        ],
      },
      {
        seriesUid: '1.2.2',
        seriesNumber: 2,
        modality: 'MR',
        description: 'SAG T1',
        frames: [{ sopUid: '1.2.2.1', frame: 1 }],
      },
    ];
    fakeApi({
      [`GET /api/share/${LINK}`]: { body: buildPage({ hasImages: true }) },
      [`GET /api/share/${LINK}/series`]: { body: series },
    });
    openShare();
    const image = await screen.findByRole('img', { name: 'Image 1 of 3' });
    expect(image.getAttribute('src')).toBe(`/api/share/${LINK}/series/1.2.1/instances/1.2.1.1/frames/1`);
    const stage = screen.getByLabelText('Image 1 of 3', { selector: 'div' });
    fireEvent.keyDown(stage, { key: 'ArrowDown' });
    fireEvent.keyDown(stage, { key: 'ArrowDown' });
    fireEvent.keyDown(stage, { key: 'ArrowDown' });
    const last = await screen.findByRole('img', { name: 'Image 3 of 3' });
    expect(last.getAttribute('src')).toContain('/instances/1.2.1.3/frames/1');
    fireEvent.keyDown(screen.getByLabelText('Image 3 of 3', { selector: 'div' }), { key: 'Home' });
    expect(await screen.findByRole('img', { name: 'Image 1 of 3' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'MR #2 SAG T1 (1)' }));
    const other = await screen.findByRole('img', { name: 'Image 1 of 1' });
    expect(other.getAttribute('src')).toContain('/series/1.2.2/instances/1.2.2.1/');
  });
});
