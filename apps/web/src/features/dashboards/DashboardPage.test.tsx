import type { TDashboard, TDashboardStudyPage, TRole } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers, signedOutHandlers } from '../../test/builders';
import { fakeApi, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { DashboardPage } from './DashboardPage';

const RANGE = '?startTime=2026-03-01&endTime=2026-03-03';

const answer: TDashboard = {
  audience: 'group',
  startTime: '2026-03-01',
  endTime: '2026-03-03',
  timeZone: 'Asia/Kolkata',
  signOffLimitMinutes: 60,
  uploaded: 5,
  open: 2,
  turnaround: { signedOff: 4, medianMinutes: 105, p90Minutes: 1044, withinLimit: 1 },
  byDay: [
    { day: '2026-03-01', uploaded: 2, signedOff: 2 },
    { day: '2026-03-02', uploaded: 2, signedOff: 2 },
    { day: '2026-03-03', uploaded: 1, signedOff: 0 },
  ],
  byModality: [
    { modality: 'CT', uploaded: 3 },
    { modality: 'MR', uploaded: 2 },
  ],
  byCenter: [
    {
      centerId: 1,
      centerName: 'Patna Scans',
      region: 'Bihar',
      uploaded: 3,
      open: 1,
      signedOff: 3,
      medianMinutes: 120,
      p90Minutes: 1000,
      withinLimit: 1,
    },
    {
      centerId: 2,
      centerName: 'Agartala CT',
      region: 'Tripura',
      uploaded: 2,
      open: 1,
      signedOff: 1,
      medianMinutes: 90,
      p90Minutes: 90,
      withinLimit: 0,
    },
    {
      centerId: 3,
      centerName: 'Kolkata MR',
      region: '',
      uploaded: 0,
      open: 0,
      signedOff: 0,
      medianMinutes: null,
      p90Minutes: null,
      withinLimit: 0,
    },
  ],
  byRegion: [
    {
      region: 'Bihar',
      uploaded: 3,
      open: 1,
      signedOff: 3,
      medianMinutes: 120,
      p90Minutes: 1000,
      withinLimit: 1,
    },
    {
      region: 'Tripura',
      uploaded: 2,
      open: 1,
      signedOff: 1,
      medianMinutes: 90,
      p90Minutes: 90,
      withinLimit: 0,
    },
  ],
  byDoctor: [
    {
      doctorId: 9,
      doctorName: 'Dr One',
      perDay: 1,
      signedOff: 3,
      medianMinutes: 120,
      p90Minutes: 1000,
      withinLimit: 1,
    },
  ],
  openByAge: [
    { bucket: 'UNDER_1H', open: 0 },
    { bucket: 'H1_TO_4', open: 0 },
    { bucket: 'H4_TO_24', open: 0 },
    { bucket: 'D1_TO_3', open: 0 },
    { bucket: 'OVER_3D', open: 2 },
  ],
};

const studies: TDashboardStudyPage = {
  content: [
    {
      id: 41,
      studyInstanceUid: '1.2.3',
      patientName: 'DOE^JANE',
      modality: 'CT',
      studyName: 'CT HEAD',
      centerName: 'Patna Scans',
      doctorName: 'Dr One',
      status: 'SIGNED_OFF',
      uploadedAt: '2026-02-28T19:00:00.000Z',
      signedOffAt: '2026-02-28T19:30:00.000Z',
      turnaroundMinutes: 30,
    },
  ],
  totalElements: 1,
  pageable: { pageNumber: 0, pageSize: 20 },
  totalPages: 1,
  size: 20,
  numberOfElements: 1,
  number: 0,
  first: true,
  last: true,
  empty: false,
};

function open(
  variant: 'detailed' | 'viewer' | 'region',
  roles: TRole[] = ['ROLE_DASHBOARD_VIEWER'],
  search = RANGE,
) {
  const api = fakeApi({
    ...sessionHandlers(buildUser(roles)),
    'GET /api/dashboard': { body: answer },
    'GET /api/dashboard/studies': { body: studies },
  });
  const path =
    variant === 'detailed'
      ? '/page/dashboard'
      : variant === 'viewer'
        ? '/admin-page/dashboard'
        : '/admin-page/eskag-dashboard';
  renderScreen(<DashboardPage variant={variant} />, { path: `${path}${search}`, route: path });
  return api;
}

const showTable = (chart: string) => {
  const card = screen.getByRole('region', { name: chart });
  fireEvent.click(within(card).getByRole('button', { name: 'Table' }));
  return within(card).getByRole('table', { name: chart });
};

afterEach(() => vi.restoreAllMocks());

describe('a dashboard (issue 24 §3)', () => {
  it("asks for the range in the address and shows the API's totals and charts", async () => {
    const api = open('viewer');
    expect(await screen.findByRole('button', { name: 'Uploaded: 5' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open now: 2' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Within 1 h: 25 %' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Median turnaround: 1 h 45 min' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '90th percentile: 17 h 24 min' })).toBeTruthy();
    const call = api.calls('GET', '/api/dashboard')[0];
    expect(call?.query.get('startTime')).toBe('2026-03-01');
    expect(call?.query.get('endTime')).toBe('2026-03-03');
    for (const title of [
      'Volumes by day',
      'Turnaround',
      'Uploaded by modality',
      'Open cases by age',
      'By center',
      'Doctor throughput',
    ]) {
      // The first row draws with the totals, the others in a background render that follows.
      expect(await screen.findByRole('region', { name: title })).toBeTruthy();
    }
    const days = showTable('Volumes by day');
    expect(
      within(days)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['DayUploadedSigned off', '2026-03-01' + '22', '2026-03-02' + '22', '2026-03-03' + '10']);
  });

  it('drills into a number: the studies behind it, by the same metric and key', async () => {
    const api = open('viewer', ['ROLE_GROUP']);
    await screen.findByRole('button', { name: 'Uploaded: 5' });
    const days = showTable('Volumes by day');
    fireEvent.click(within(days).getByRole('button', { name: 'Uploaded, 2026-03-01: 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Uploaded — 2026-03-01' });
    expect(await within(dialog).findByText('CT HEAD')).toBeTruthy();
    expect(within(dialog).getByText('JANE DOE')).toBeTruthy();
    expect(within(dialog).getByText('30 min')).toBeTruthy();
    const call = api.calls('GET', '/api/dashboard/studies')[0];
    expect(Object.fromEntries(call?.query ?? [])).toMatchObject({
      startTime: '2026-03-01',
      endTime: '2026-03-03',
      metric: 'UPLOADED_DAY',
      key: '2026-03-01',
      page: '0',
    });
  });

  it("hides the patient's name from a dashboard viewer's lists only when the server sends none", async () => {
    fakeApi({
      ...sessionHandlers(buildUser(['ROLE_DASHBOARD_VIEWER'])),
      'GET /api/dashboard': { body: answer },
      'GET /api/dashboard/studies': {
        body: { ...studies, content: studies.content.map((s) => ({ ...s, patientName: null })) },
      },
    });
    renderScreen(<DashboardPage variant="viewer" />, {
      path: `/admin-page/dashboard${RANGE}`,
      route: '/admin-page/dashboard',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Open now: 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Open now' });
    await within(dialog).findByText('CT HEAD');
    expect(within(dialog).queryByRole('columnheader', { name: 'Patient' })).toBeNull();
  });

  it("exports a chart's numbers as CSV", async () => {
    open('viewer');
    await screen.findByRole('button', { name: 'Uploaded: 5' });
    let saved: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved = blob as Blob;
      return 'blob:chart';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const card = await screen.findByRole('region', { name: 'By center' });
    fireEvent.click(within(card).getByRole('button', { name: 'Export CSV' }));
    expect(saved).not.toBeNull();
    expect(await (saved as unknown as Blob).text()).toBe(
      [
        'Center,Uploaded,Signed off,Open,Median turnaround,90th percentile,Within limit',
        'Patna Scans,3,3,1,2 h,16 h 40 min,33 %',
        'Agartala CT,2,1,1,1 h 30 min,1 h 30 min,0 %',
        'Kolkata MR,0,0,0,—,—,—',
        '',
      ].join('\r\n'),
    );
  });

  it('names the field of a bad range and does not ask the server', async () => {
    const api = open('viewer', ['ROLE_DASHBOARD_VIEWER'], '?startTime=2026-03-05&endTime=2026-03-01');
    expect(await screen.findByText('End date must not be before start date')).toBeTruthy();
    expect(api.calls('GET', '/api/dashboard')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2026-03-07' } });
    await waitFor(() => expect(api.calls('GET', '/api/dashboard')).toHaveLength(1));
    expect(api.calls('GET', '/api/dashboard')[0]?.query.get('endTime')).toBe('2026-03-07');
  });

  it('groups the region dashboard by region, then center', async () => {
    const api = open('region');
    await screen.findByRole('button', { name: 'Uploaded: 5' });
    const regions = showTable('By region');
    expect(
      within(regions)
        .getAllByRole('row')
        .slice(1)
        .map((r) => (r as HTMLTableRowElement).cells[0]?.textContent),
    ).toEqual(['Bihar', 'Tripura']);
    const centers = showTable('Centers by region');
    expect(
      within(centers)
        .getAllByRole('row')
        .slice(1)
        .map((r) => (r as HTMLTableRowElement).cells[0]?.textContent),
    ).toEqual(['Bihar · Patna Scans', 'Tripura · Agartala CT', 'No region · Kolkata MR']);
    fireEvent.click(within(regions).getByRole('button', { name: 'Signed off, Tripura: 1' }));
    await screen.findByRole('dialog', { name: 'Signed off — Tripura' });
    const req: TRecordedRequest | undefined = api.calls('GET', '/api/dashboard/studies')[0];
    expect(req?.query.get('metric')).toBe('REGION_SIGNED_OFF');
    expect(req?.query.get('key')).toBe('Tripura');
  });

  it('asks a visitor of the public /admin-page/dashboard to sign in', async () => {
    fakeApi(signedOutHandlers);
    renderScreen(<DashboardPage variant="viewer" />, { path: '/admin-page/dashboard' });
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
  });
});
