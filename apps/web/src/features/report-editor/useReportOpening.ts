import {
  REPORTING_MESSAGES,
  chooseReportOpening,
  formatDicomText,
  isReportReadOnly,
  type TDraftCopy,
  type TReport,
  type TReportingActor,
  type TRole,
  type TSavedCopy,
  type TStudyDetail,
} from '@radflow/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { clearLocalDraft, readLocalDraft } from './local-drafts';
import { deleteDraft, errorText, fetchDraft, lockReport, studyRowQueryKey } from './report-editor-api';

/** What the editor starts with. */
export interface TOpeningText {
  name: string;
  content: string;
  /** The saved version this text builds on (sent with every draft). */
  baseVersion: number | null;
}

export type TOpeningState =
  | { phase: 'opening' }
  | { phase: 'conflict'; draft: TDraftCopy; saved: TSavedCopy }
  | { phase: 'ready'; text: TOpeningText; readOnlyReason: string | null };

/** The last saved version of the main report, as the draft choice compares it. */
export function savedCopyOf(main: TReport | null): TSavedCopy | null {
  const last = main?.versions[main.versions.length - 1];
  if (!main || !last) return null;
  return {
    name: main.name,
    content: main.content,
    version: last.version,
    savedAt: last.savedAt,
    savedBy: last.savedBy,
  };
}

const textOfSaved = (saved: TSavedCopy | null, fallbackName: string): TOpeningText => ({
  name: saved?.name ?? fallbackName,
  content: saved?.content ?? '',
  baseVersion: saved?.version ?? null,
});

/**
 * What a reader opens: the report as the server answered it. Readers other than the writers get it
 * without its versions (core reportsForReader), so its text cannot come from the last version.
 */
const textOfReport = (main: TReport | null, fallbackName: string): TOpeningText => ({
  name: main?.name ?? fallbackName,
  content: main?.content ?? '',
  baseVersion: main?.versions[main.versions.length - 1]?.version ?? null,
});

const textOfDraft = (draft: TDraftCopy, saved: TSavedCopy | null, fallbackName: string): TOpeningText => ({
  name: draft.name || saved?.name || fallbackName,
  content: draft.content,
  baseVersion: draft.baseVersion,
});

/**
 * Opening the report (issue 7 §2, §1 drafts): a doctor or typist locks the study first (a refusal —
 * 'Study is locked by someone else' — opens it read-only with that message); then the newest of the
 * saved report, the server draft and this device's copy is chosen, asking when someone else saved
 * after the draft began. Runs once per mount.
 */
export function useReportOpening(input: {
  id: number;
  me: string;
  roles: readonly TRole[];
  actor: TReportingActor | null;
  /** The doctor a typist types for. */
  doctorEmail: string | null;
  row: TStudyDetail;
  main: TReport | null;
}): { state: TOpeningState; chooseDraft: () => void; chooseSaved: () => void } {
  const queryClient = useQueryClient();
  const [state, setState] = useState<TOpeningState>({ phase: 'opening' });
  const started = useRef(false);
  const saved = savedCopyOf(input.main);
  // The study's name as shown ('Rorden^Rorden_Prisma' reads 'Rorden Rorden_Prisma'): it becomes the report's title.
  const fallbackName = formatDicomText(input.row.studyName) || 'Report';

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const { id, actor, me } = input;
    const readOnly = (reason: string | null) =>
      setState({ phase: 'ready', text: textOfReport(input.main, fallbackName), readOnlyReason: reason });
    if (actor === null) {
      readOnly(isReportReadOnly(input.roles) ? REPORTING_MESSAGES.readOnly : null);
      return;
    }
    void (async () => {
      if (actor !== 'VERIFIER') {
        try {
          const row = await lockReport(id, actor === 'TYPIST' ? input.doctorEmail : null);
          queryClient.setQueryData(studyRowQueryKey(id), row);
        } catch (error) {
          readOnly(errorText(error));
          return;
        }
      }
      const serverDraft = await fetchDraft(id).catch(() => null);
      const deviceDraft = readLocalDraft(id, me);
      const choice = chooseReportOpening({ saved, serverDraft, deviceDraft, me });
      if (choice.kind === 'CONFLICT')
        setState({ phase: 'conflict', draft: choice.draft, saved: choice.saved });
      else
        setState({
          phase: 'ready',
          text:
            choice.kind === 'DRAFT'
              ? textOfDraft(choice.draft, saved, fallbackName)
              : textOfSaved(saved, fallbackName),
          readOnlyReason: null,
        });
    })();
    // Opening runs once; later changes of the row are the editor's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const chooseDraft = () => {
    if (state.phase !== 'conflict') return;
    setState({ phase: 'ready', text: textOfDraft(state.draft, saved, fallbackName), readOnlyReason: null });
  };
  const chooseSaved = () => {
    if (state.phase !== 'conflict') return;
    clearLocalDraft(input.id, input.me);
    void deleteDraft(input.id).catch(() => undefined);
    setState({ phase: 'ready', text: textOfSaved(state.saved, fallbackName), readOnlyReason: null });
  };
  return { state, chooseDraft, chooseSaved };
}
