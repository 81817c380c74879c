import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useSignedInSession } from '../auth/session';
import { TypistDoctorGate } from '../typist-gate/TypistDoctorGate';
import { DraftConflictDialog } from './DraftConflictDialog';
import { ReportWorkspace, type TCaptureImage } from './ReportWorkspace';
import { mainReportOf, writerActorOf } from './editor-rules';
import {
  errorText,
  fetchReports,
  fetchStudyRow,
  reportsQueryKey,
  studyRowQueryKey,
} from './report-editor-api';
import { useReportOpening } from './useReportOpening';
import type { TReport, TReportingActor, TStudyDetail } from '@radflow/core';

/**
 * The report editor of one study (issue 7 §1-§2), used by /report-edit and beside the viewer's
 * images: loads the row and its reports, asks a typist for their doctor (spec-core §6), opens the
 * report (lock, drafts) and shows the workspace. `header` renders above it with the loaded row.
 */
export function ReportEditorPanel({
  reportStatusId,
  captureImage,
  draftDelayMs,
  header,
}: {
  reportStatusId: number;
  captureImage?: TCaptureImage;
  draftDelayMs?: number;
  header?: (row: TStudyDetail) => ReactNode;
}) {
  const session = useSignedInSession();
  const row = useQuery({
    queryKey: studyRowQueryKey(reportStatusId),
    queryFn: ({ signal }) => fetchStudyRow(reportStatusId, signal),
    staleTime: Infinity,
  });
  const reports = useQuery({
    queryKey: reportsQueryKey(reportStatusId),
    queryFn: ({ signal }) => fetchReports(reportStatusId, signal),
    staleTime: Infinity,
  });
  const [typistDoctor, setTypistDoctor] = useState<string | null>(null);

  const failed = row.error ?? reports.error;
  if (failed) return <Typography sx={{ p: 2 }}>{errorText(failed)}</Typography>;
  if (!row.data || !reports.data) return <Typography sx={{ p: 2 }}>Opening the report…</Typography>;
  const main = mainReportOf(reports.data.reports);
  const actor = writerActorOf(session.roles, main);
  return (
    <>
      {header?.(row.data)}
      {actor === 'TYPIST' && typistDoctor === null ? (
        <TypistDoctorGate
          place="report-editor"
          suggested={row.data.lockedBy ?? row.data.assignedTo}
          onChoose={setTypistDoctor}
        />
      ) : (
        <OpenedReport
          row={row.data}
          reports={reports.data.reports}
          main={main}
          actor={actor}
          doctorEmail={typistDoctor ?? session.user.email}
          captureImage={captureImage}
          draftDelayMs={draftDelayMs}
          refetchReports={async () => (await reports.refetch()).data?.reports ?? []}
        />
      )}
    </>
  );
}

function OpenedReport({
  row,
  reports,
  main,
  actor,
  doctorEmail,
  captureImage,
  draftDelayMs,
  refetchReports,
}: {
  row: TStudyDetail;
  reports: readonly TReport[];
  main: TReport | null;
  actor: TReportingActor | null;
  doctorEmail: string;
  captureImage?: TCaptureImage;
  draftDelayMs?: number;
  refetchReports: () => Promise<readonly TReport[]>;
}) {
  const session = useSignedInSession();
  const { state, chooseDraft, chooseSaved } = useReportOpening({
    id: row.id,
    me: session.user.email,
    roles: session.roles,
    actor,
    doctorEmail,
    row,
    main,
  });
  if (state.phase === 'opening') return <Typography sx={{ p: 2 }}>Opening the report…</Typography>;
  if (state.phase === 'conflict') {
    return (
      <DraftConflictDialog
        draft={state.draft}
        saved={state.saved}
        onKeepDraft={chooseDraft}
        onUseSaved={chooseSaved}
      />
    );
  }
  return (
    <ReportWorkspace
      row={row}
      reports={reports}
      opening={state.text}
      readOnlyReason={state.readOnlyReason}
      doctorEmail={doctorEmail}
      captureImage={captureImage}
      draftDelayMs={draftDelayMs}
      onSaved={refetchReports}
    />
  );
}
