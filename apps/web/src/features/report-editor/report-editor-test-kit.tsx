import type { TReport, TReportVersion, TStudyDetail } from '@radflow/core';
import { waitFor } from '@testing-library/react';
import type { Editor } from '@tiptap/react';
import type { ReactNode } from 'react';
import { expect } from 'vitest';
import { buildStudyRow } from '../../test/study-row';
import { renderRoutes } from '../../test/render';
import { useSession } from '../auth/session';
import { ReportEditorPanel } from './ReportEditorPanel';

/* Test helpers of the report editor (tests only). */

export const ROW_ID = 7;

export function buildDetail(overrides: Partial<TStudyDetail> = {}): TStudyDetail {
  return {
    ...buildStudyRow({ id: ROW_ID, status: 'HISTORY_CREATED' }),
    assignedAt: null,
    printedAt: null,
    reports: [],
    ...overrides,
  };
}

export function buildVersion(overrides: Partial<TReportVersion> = {}): TReportVersion {
  return {
    version: 1,
    kind: 'SAVE',
    name: 'CT Chest',
    content: '<p>Lungs are clear.</p>',
    savedBy: 'doc@demo.local',
    savedByName: 'Dr Doc',
    savedAt: '2026-11-21T09:00:00.000Z',
    ...overrides,
  };
}

export function buildReport(versions: TReportVersion[], overrides: Partial<TReport> = {}): TReport {
  const last = versions[versions.length - 1];
  return {
    id: 1,
    name: last?.name ?? 'CT Chest',
    format: 'HTML',
    content: last?.content ?? '',
    doctor: 'doc@demo.local',
    doctorName: 'Dr Doc',
    typedBy: 'doc@demo.local',
    isAddendum: false,
    awaitingVerification: false,
    verifiedBy: null,
    signedOffBy: null,
    signature: null,
    createdAt: '2026-11-21T09:00:00.000Z',
    updatedAt: last?.savedAt ?? '2026-11-21T09:00:00.000Z',
    versions,
    ...overrides,
  };
}

export const reportsBody = (reports: TReport[]) => ({ body: { reportStatusId: ROW_ID, reports } });

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

/** The editor panel of row 7 in the app's providers, with a short draft delay. */
export function renderEditor(draftDelayMs = 10, captureImage?: () => Promise<Blob | null>) {
  return renderRoutes(
    [
      {
        path: '/report-edit/:studyInstanceUids/:id/*',
        element: (
          <SignedIn>
            <ReportEditorPanel
              reportStatusId={ROW_ID}
              draftDelayMs={draftDelayMs}
              captureImage={captureImage}
            />
          </SignedIn>
        ),
      },
    ],
    `/report-edit/1.2.3/${ROW_ID}`,
  );
}

/** The TipTap editor behind a report textbox (TipTap keeps it on its element). */
export async function editorOf(label = 'Report'): Promise<Editor> {
  let editor: Editor | undefined;
  await waitFor(
    () => {
      const dom = document.querySelector(`[aria-label="${label}"].tiptap`) as
        (HTMLElement & { editor?: Editor }) | null;
      editor = dom?.editor;
      expect(editor).toBeTruthy();
    },
    { timeout: 8_000 },
  );
  return editor as Editor;
}

/** Types as the user would: the text replaces the document and TipTap's update fires. */
export async function typeReport(html: string, label = 'Report'): Promise<void> {
  const editor = await editorOf(label);
  editor.commands.setContent(html, { emitUpdate: true });
}
