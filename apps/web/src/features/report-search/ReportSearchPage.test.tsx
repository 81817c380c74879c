import type { TReportSearchAnswer, TReportSearchHit } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { type TRecordedRequest, fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { ReportSearchPage } from './ReportSearchPage';

const hit = (id: number, over: Partial<TReportSearchHit> = {}): TReportSearchHit => ({
  id,
  modality: 'MR',
  patient_age: '054Y',
  patient_sex: 'F',
  study_instanceuid: `1.2.3.${id}`,
  api_version: 2,
  report_with_content: [{ id: id * 10, name: 'MRI Brain', content: 'Impression: Meningioma.' }],
  reportTag: [],
  patient_name: 'ROE^ANNA',
  patient_id: `P${id}`,
  center_name: 'City Imaging',
  study_description: 'MRI BRAIN',
  study_date: '2026-03-10 10:15:00',
  signed_off_at: '2026-03-10T05:00:00.000Z',
  snippet: [
    { text: 'Impression: ', match: false },
    { text: 'Meningioma', match: true },
    { text: ' of the left convexity.', match: false },
  ],
  ...over,
});

const answer = (hits: TReportSearchHit[], value = hits.length, relation: 'eq' | 'gte' = 'eq', size = 20) =>
  ({ hits: { total: { value, relation }, hits }, page: 0, size }) satisfies TReportSearchAnswer;

describe('ReportSearchPage', () => {
  it('searches with the filters and shows cards with the matched word marked', async () => {
    const api = fakeApi({
      'POST /api/query/search': (req: TRecordedRequest) =>
        req.json<{ keywords: string }>().keywords
          ? {
              body: answer([
                hit(7, {
                  reportTag: [{ id: 1, tag: 'Teaching', globalTag: true, createdBy: 'a@x' }],
                  // A report that talks about markup: shown as text, never as HTML.
                  snippet: [
                    { text: '<img src=x onerror=alert(1)> ', match: false },
                    { text: 'Meningioma', match: true },
                  ],
                }),
              ]),
            }
          : { body: answer([]) },
    });
    renderScreen(<ReportSearchPage />, { path: '/search-page' });
    expect(await screen.findByTestId('report-search-empty')).toBeTruthy();
    expect(api.calls('POST', '/api/query/search')[0]?.json()).toEqual({
      keywords: '',
      modality: '',
      tag: '',
      startTime: '',
      endTime: '',
      page: 0,
      size: 20,
    });

    const form = screen.getByRole('search', { name: 'Report search' });
    fireEvent.change(within(form).getByLabelText('Keywords'), { target: { value: 'Meningioma' } });
    fireEvent.change(within(form).getByLabelText('Tag'), { target: { value: ' Teaching ' } });
    fireEvent.change(within(form).getByLabelText('Start date'), { target: { value: '2026-03-01' } });
    fireEvent.change(within(form).getByLabelText('End date'), { target: { value: '2026-03-31' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Search' }));

    const card = await screen.findByRole('article', { name: 'Report of ANNA ROE' });
    expect(api.calls('POST', '/api/query/search').at(-1)?.json()).toEqual({
      keywords: 'Meningioma',
      modality: '',
      tag: 'Teaching',
      startTime: '2026-03-01',
      endTime: '2026-03-31',
      page: 0,
      size: 20,
    });
    expect(screen.getByTestId('report-search-total').textContent).toBe('1 report');
    const marks = card.querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['Meningioma']);
    expect(card.querySelector('img')).toBeNull();
    expect(within(card).getByTestId('report-snippet').textContent).toBe(
      '<img src=x onerror=alert(1)> Meningioma',
    );
    expect(within(card).getByText('Teaching')).toBeTruthy();
    expect(within(card).getByText('MR')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Open report' }).getAttribute('href')).toBe(
      '/report-edit/1.2.3.7/7?v=2',
    );
  });

  it('offers the preset keyword suggestions of spec-core §2', async () => {
    fakeApi({ 'POST /api/query/search': { body: answer([]) } });
    renderScreen(<ReportSearchPage />, { path: '/search-page' });
    const input = screen.getByLabelText('Keywords');
    fireEvent.mouseDown(input);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    const list = await screen.findByRole('listbox');
    const options = within(list)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options[0]).toBe('Meningioma');
    expect(options).toContain('Anterior cruciate ligament tear');
    expect(options).toHaveLength(11);
  });

  it('pages through the results in 20s or 50s', async () => {
    const api = fakeApi({
      'POST /api/query/search': (req: TRecordedRequest) => {
        const { page, size } = req.json<{ page: number; size: number }>();
        const hits = Array.from({ length: page === 0 ? size : 5 }, (_, i) => hit(page * size + i + 1));
        return { body: { ...answer(hits, size === 20 ? 25 : 25, 'eq', size), page } };
      },
    });
    renderScreen(<ReportSearchPage />, { path: '/search-page' });
    expect(await screen.findAllByRole('article')).toHaveLength(20);
    expect(screen.getByText('1–20 of 25')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(5));
    expect(api.calls('POST', '/api/query/search').at(-1)?.json()).toMatchObject({ page: 1, size: 20 });

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Reports per page' }));
    fireEvent.click(await screen.findByRole('option', { name: '50' }));
    await waitFor(() =>
      expect(api.calls('POST', '/api/query/search').at(-1)?.json()).toMatchObject({ page: 0, size: 50 }),
    );
  });

  it('says when more than 10,000 reports match', async () => {
    fakeApi({ 'POST /api/query/search': { body: answer([hit(1)], 10_000, 'gte') } });
    renderScreen(<ReportSearchPage />, { path: '/search-page' });
    expect((await screen.findByTestId('report-search-total')).textContent).toBe('More than 10,000 reports');
  });

  it('marks an end date before the start date and does not search', async () => {
    const api = fakeApi({ 'POST /api/query/search': { body: answer([]) } });
    renderScreen(<ReportSearchPage />, { path: '/search-page' });
    await screen.findByTestId('report-search-empty');
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2026-03-10' } });
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2026-03-01' } });
    expect(screen.getByText('End date must not be before start date')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Search' }).hasAttribute('disabled')).toBe(true);
    expect(api.calls('POST', '/api/query/search')).toHaveLength(1);
  });

  it("shows the server's refusal where the results would be", async () => {
    fakeApi({
      'POST /api/query/search': {
        status: 403,
        body: {
          errorStatusCode: 403,
          errorDescription: 'You are not allowed to view this page',
          additionalInfo: null,
          txnId: 't1',
        },
      },
    });
    renderScreen(<ReportSearchPage />, { path: '/search-page' });
    expect((await screen.findByRole('alert')).textContent).toBe('You are not allowed to view this page');
  });
});
