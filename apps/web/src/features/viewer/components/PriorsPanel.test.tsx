import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TViewerPrior } from '@radflow/core';
import { fakeApi } from '../../../test/fake-api';
import { renderScreen } from '../../../test/render';
import { PriorsPanel } from './PriorsPanel';

afterEach(() => vi.unstubAllGlobals());

const prior = (over: Partial<TViewerPrior>): TViewerPrior => ({
  id: 1,
  studyInstanceUid: '1.2.3',
  apiVersion: 2,
  studyDate: '20260101',
  studyTime: '',
  modalities: ['CT'],
  studyDescription: 'CT HEAD',
  instanceCount: 3,
  status: 'SIGNED_OFF',
  patientName: 'DOE^JANE',
  patientBirthDate: '19800101',
  differs: [],
  ...over,
});

describe('PriorsPanel', () => {
  it('warns on the prior whose name or birth date differ (issue 21 §8), not on the others', async () => {
    fakeApi({
      'GET /api/viewer/7/priors': {
        body: {
          priors: [
            prior({ id: 1 }),
            prior({ id: 2, studyDate: '20250101', patientName: 'DOE^JANET', differs: ['patientName'] }),
          ],
        },
      },
    });
    renderScreen(<PriorsPanel id={7} onOpen={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'Prior studies' });
    const items = within(list).getAllByRole('button');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).queryByRole('alert')).toBeNull();
    expect(within(items[1]!).getByRole('alert').textContent).toBe(
      'Same patient ID, different name JANET DOE: check it is the same patient',
    );
  });
});
