import type { TReportTemplate } from '@radflow/core';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { TemplateChooser, fittingQuery } from './TemplateChooser';

const SLOW = { timeout: 20_000 };
// The first answers arrive after the session loads; on a busy machine that takes more than 1 s.
configure({ asyncUtilTimeout: 10_000 });

const template = (
  id: number,
  name: string,
  content: string,
  extra: Partial<TReportTemplate> = {},
): TReportTemplate => ({
  id,
  name,
  content,
  modalities: [],
  bodyParts: [],
  gender: null,
  owner: 'doctor@demo.local',
  isOwn: true,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  ...extra,
});

describe('TemplateChooser', () => {
  it(
    'asks only for the templates that fit the study, searches them, previews and inserts one',
    SLOW,
    async () => {
      const fitting = [
        template(1, 'CT Brain plain', '<p>No bleed.</p>', { modalities: ['CT'] }),
        template(2, 'CT Brain contrast', '<p>No enhancing lesion.</p>', { modalities: ['CT'] }),
      ];
      const every = [...fitting, template(3, 'MR Knee', '<p>Menisci intact.</p>', { modalities: ['MR'] })];
      // fakeApi keys by path only: the answer follows the query string of the latest fetch.
      const lastUrl = () => String(vi.mocked(globalThis.fetch).mock.calls.at(-1)?.[0]);
      const api = fakeApi({
        'GET /api/report-template/': () => ({ body: lastUrl().includes('modality=') ? fitting : every }),
      });
      const fetchStub = vi.mocked(globalThis.fetch);
      const onInsert = vi.fn();
      renderScreen(
        <TemplateChooser study={{ modality: 'CT', bodyPart: 'Head', sex: 'F' }} onInsert={onInsert} />,
      );
      await screen.findByText('CT Brain plain');
      expect(screen.queryByText('MR Knee')).toBeNull();
      const firstUrl = String(fetchStub.mock.calls[0]?.[0]);
      expect(firstUrl).toContain('modality=CT');
      expect(firstUrl).toContain('bodyPart=Head');
      expect(firstUrl).toContain('gender=F');
      expect(api.calls('GET', '/api/report-template/')).toHaveLength(1);

      fireEvent.change(screen.getByLabelText('Search templates'), { target: { value: 'contrast' } });
      expect(screen.queryByText('CT Brain plain')).toBeNull();
      fireEvent.click(screen.getByText('CT Brain contrast'));
      const preview = screen.getByRole('document', { name: 'Template preview' });
      expect(within(preview).getByText('No enhancing lesion.')).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Insert' }));
      expect(onInsert).toHaveBeenCalledWith('<p>No enhancing lesion.</p>');

      // Widening the list asks without the study's facts.
      fireEvent.click(screen.getByLabelText('Only for this study'));
      await waitFor(() => expect(api.calls('GET', '/api/report-template/')).toHaveLength(2));
      expect(lastUrl()).not.toContain('modality=');
      fireEvent.change(screen.getByLabelText('Search templates'), { target: { value: '' } });
      expect(await screen.findByText('MR Knee')).toBeTruthy();
    },
  );

  it('builds the query from the known facts only', () => {
    expect(fittingQuery({ modality: 'CT,PT', bodyPart: null, sex: null })).toEqual({ modality: 'CT,PT' });
    expect(fittingQuery({ modality: null, sex: 'M' })).toEqual({ gender: 'M' });
  });
});
