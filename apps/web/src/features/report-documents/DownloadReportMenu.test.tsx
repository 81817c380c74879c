import {
  REPORT_DOWNLOAD_OPTIONS,
  type TRole,
  type TStudyListRow,
  type TUserPreferences,
} from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderRoutes } from '../../test/render';
import { buildStudyRow } from '../../test/study-row';
import { useSession } from '../auth/session';
import { StudyRowActions } from '../study-actions/StudyRowActions';
import { DOWNLOAD_BUTTON_LABEL, DownloadReportMenu } from './DownloadReportMenu';
import { fileNameOf } from './report-documents.api';

// MUI menus in jsdom are slow; on a busy machine these stories need more than 5 s.
const SLOW = { timeout: 20_000 };
const CENTER_ID = 1;
const LABELS = REPORT_DOWNLOAD_OPTIONS.map((o) => o.label);

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const signedOff = (overrides: Partial<TStudyListRow> = {}) =>
  buildStudyRow({ status: 'SIGNED_OFF', hasReports: true, centerId: CENTER_ID, ...overrides });

function renderWith(roles: TRole[], element: ReactNode, preferences?: TUserPreferences) {
  const api = fakeApi({
    ...sessionHandlers(buildUser(roles, { centerId: CENTER_ID }), preferences),
    'POST /api/pdf/download': { text: '%PDF-1.3 fake' },
    'POST /api/pdf/download-images': { text: '%PDF-1.3 fake' },
    'POST /api/pdf/word': { text: 'PK fake docx' },
  });
  renderRoutes([{ path: '/', element: <SignedIn>{element}</SignedIn> }], '/');
  return api;
}

let clicked: HTMLAnchorElement[];
beforeEach(() => {
  clicked = [];
  // jsdom has no object URLs and follows no links: record what would be saved.
  URL.createObjectURL = vi.fn(() => 'blob:fake');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push(this);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  document.querySelectorAll('iframe').forEach((f) => f.remove());
});

const menuLabels = async () =>
  within(await screen.findByRole('menu'))
    .getAllByRole('menuitem')
    .map((item) => item.textContent);

describe('the study list Print action', () => {
  it('opens the six download options of spec-core §9 and saves the chosen PDF', SLOW, async () => {
    const row = signedOff();
    const api = renderWith(
      ['ROLE_CENTER'],
      <StudyRowActions row={row} listKind="center" onChanged={() => undefined} />,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Print report' }));
    expect(await menuLabels()).toEqual(LABELS);

    fireEvent.click(screen.getByRole('menuitem', { name: 'PDF with header and images' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    const [call] = api.calls('POST', '/api/pdf/download-images');
    expect(call?.json()).toEqual({ uid: row.instanceId, reportStatusId: row.id, showTemplate: true });
    expect(clicked[0]?.download).toBe(`report-${row.id}.pdf`);
  });

  it('marks the row as downloaded here once its report is saved', SLOW, async () => {
    const row = signedOff({ id: 9101 });
    renderWith(['ROLE_CENTER'], <StudyRowActions row={row} listKind="center" onChanged={() => undefined} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Print report' }));
    expect(screen.queryByTitle(/^Downloaded here/)).toBeNull();
    fireEvent.click(await screen.findByRole('menuitem', { name: 'PDF' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(await screen.findByTitle(/^Downloaded here/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Print report' }));
    expect(within(await screen.findByRole('menu')).getByText(/^Downloaded here/)).toBeTruthy();
    // The menu's options are unchanged by the note.
    expect(await menuLabels()).toEqual(LABELS);
  });

  it(
    'Print asks for a print with the group letterhead default and prints from a hidden frame',
    SLOW,
    async () => {
      const row = signedOff();
      const api = renderWith(
        ['ROLE_CENTER'],
        <StudyRowActions row={row} listKind="center" onChanged={() => undefined} />,
      );
      fireEvent.click(await screen.findByRole('button', { name: 'Print report' }));
      fireEvent.click(await screen.findByRole('menuitem', { name: 'Print' }));
      await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
      // No showTemplate: the server applies downloadReportWithLetterhead.
      expect(api.calls('POST', '/api/pdf/download')[0]?.json()).toEqual({
        uid: row.instanceId,
        reportStatusId: row.id,
        print: true,
      });
      expect(clicked).toHaveLength(0);
    },
  );

  it('is disabled for a center while the report is not signed off', SLOW, async () => {
    renderWith(
      ['ROLE_CENTER'],
      <StudyRowActions
        row={signedOff({ status: 'REPORTED' })}
        listKind="center"
        onChanged={() => undefined}
      />,
    );
    expect((await screen.findByRole<HTMLButtonElement>('button', { name: 'Print report' })).disabled).toBe(
      true,
    );
  });
});

describe('DownloadReportMenu on its own (the editor)', () => {
  it('lets the doctor take a preliminary PDF but not print it', SLOW, async () => {
    renderWith(['ROLE_DOCTOR'], <DownloadReportMenu row={signedOff({ status: 'REPORTED' })} />);
    fireEvent.click(await screen.findByRole('button', { name: DOWNLOAD_BUTTON_LABEL }));
    await screen.findByRole('menu');
    expect(screen.getByRole('menuitem', { name: 'Print' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByRole('menuitem', { name: 'PDF' }).getAttribute('aria-disabled')).toBeNull();
  });

  it('sends the editor text as customHtml and hides Word from a center while editing', SLOW, async () => {
    const row = signedOff();
    const api = renderWith(
      ['ROLE_CENTER'],
      <DownloadReportMenu row={row} isEditing getCustomHtml={() => '<p>Draft</p>'} />,
    );
    fireEvent.click(await screen.findByRole('button', { name: DOWNLOAD_BUTTON_LABEL }));
    expect(await menuLabels()).toEqual(LABELS.filter((l) => l !== 'Word'));
    fireEvent.click(screen.getByRole('menuitem', { name: 'PDF' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(api.calls('POST', '/api/pdf/download')[0]?.json()).toMatchObject({
      showTemplate: false,
      customHtml: '<p>Draft</p>',
    });
  });

  it('is not there for a doctor whose downloading is disabled (spec-core §5)', SLOW, async () => {
    const prefs = buildPreferences((p) => {
      p.USER_ADMIN_VISIBLE_PREFERENCES.disableDownloadZipForDoctor = true;
    });
    renderWith(
      ['ROLE_DOCTOR'],
      <>
        <span>editor</span>
        <DownloadReportMenu row={signedOff()} />
      </>,
      prefs,
    );
    await screen.findByText('editor');
    expect(screen.queryByRole('button', { name: DOWNLOAD_BUTTON_LABEL })).toBeNull();
  });
});

describe('fileNameOf', () => {
  it('prefers the UTF-8 name, then the plain one, then the fallback', () => {
    expect(fileNameOf(`attachment; filename="I_ - CT.pdf"; filename*=UTF-8''%D0%98%20-%20CT.pdf`, 'x')).toBe(
      'И - CT.pdf',
    );
    expect(fileNameOf('attachment; filename="a b.pdf"', 'x')).toBe('a b.pdf');
    expect(fileNameOf(null, 'report-1.pdf')).toBe('report-1.pdf');
  });
});
