import { fireEvent, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { REPORTING_MESSAGES } from '@radflow/core';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { useSession } from '../auth/session';
import ReportEditPage from './ReportEditPage';
import { ROW_ID, buildDetail, buildReport, buildVersion, reportsBody } from './report-editor-test-kit';

const SCREEN = { timeout: 20_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const renderPage = () =>
  renderRoutes(
    [
      {
        path: '/report-edit/:studyInstanceUids/:id/*',
        element: (
          <SignedIn>
            <ReportEditPage />
          </SignedIn>
        ),
      },
    ],
    `/report-edit/1.2.3/${ROW_ID}?v=2`,
  );

const handlers = (hideReportPreview: boolean, showImagesInPrintPreview = false) => ({
  ...sessionHandlers(
    buildUser(['ROLE_REFERRING_DOCTOR']),
    buildPreferences((p) => {
      p.EDITOR_PREFERENCES.hideReportPreview = hideReportPreview;
      p.EDITOR_PREFERENCES.showImagesInPrintPreview = showImagesInPrintPreview;
      p.EDITOR_PREFERENCES.defaultEditorFontSize = 14;
    }),
  ),
  [`GET /api/report-status/id/${ROW_ID}`]: {
    body: buildDetail({ patientName: 'DOE^JANE', patientAge: '40Y', patientSex: 'F', history: 'Fever' }),
  },
  [`GET /api/report/${ROW_ID}`]: reportsBody([
    buildReport([buildVersion({ content: '<p>Clear lungs.</p><img src="/api/assets/abc">' })]),
  ]),
});

describe('/report-edit (edit-only page)', SCREEN, () => {
  it('shows the study header and a print preview of the report on a page', async () => {
    fakeApi(handlers(false));
    renderPage();
    const header = await screen.findByLabelText('Study');
    expect(header.textContent).toContain('JANE DOE');
    expect(header.textContent).toContain('40Y / F');
    expect(header.textContent).toContain('Fever');
    fireEvent.click(await screen.findByRole('button', { name: 'Preview' }));
    const preview = screen.getByRole('region', { name: 'Print preview' });
    expect(preview.textContent).toContain('Clear lungs.');
    const page = preview.firstElementChild as HTMLElement;
    expect(getComputedStyle(page).fontSize).toBe('14pt');
    // Images show in the preview only with showImagesInPrintPreview.
    const image = preview.querySelector('img');
    expect(image).not.toBeNull();
    expect(getComputedStyle(image as HTMLImageElement).display).toBe('none');
  });

  it('has no preview with hideReportPreview', async () => {
    fakeApi(handlers(true));
    renderPage();
    await screen.findByText(REPORTING_MESSAGES.readOnly);
    expect(screen.queryByRole('button', { name: 'Preview' })).toBeNull();
  });
});
