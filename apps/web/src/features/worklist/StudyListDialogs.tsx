import {
  CONFIRMATIONS,
  type TResolvedColumn,
  type TStudyListRow,
  type TTableKey,
  zipDownloadRefusal,
} from '@radflow/core';
import { Suspense, useState } from 'react';
import { useConfirm, useSnackbar } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import type { TZipRequest } from './ZipDownloadHost';
// The lazy export (study-actions/lazy-dialogs): the dialog loads on first open.
import { AssignDoctorDialog } from '../study-actions';
import { openWhenLoaded, preloadable } from '../../lib/preloadable';

// Not needed for the first paint of a list: each loads when first opened.
const ColumnSettingsDialog = preloadable(() => import('./ColumnSettingsDialog'));
const CreateStudyDialog = preloadable(() => import('../create-study/CreateStudyDialog'));
const UploadStudyDialog = preloadable(() =>
  import('../upload/UploadStudyDialog').then((m) => ({ default: m.UploadStudyDialog })),
);
const ZipDownloadHost = preloadable(() => import('./ZipDownloadHost'));
const PacsForwardDialog = preloadable(() =>
  import('../forwarding/PacsForwardDialog').then((m) => ({ default: m.PacsForwardDialog })),
);

type TOpenDialog =
  | { kind: 'columns' }
  | { kind: 'createStudy' }
  | { kind: 'upload'; row: TStudyListRow }
  | { kind: 'forward'; row: TStudyListRow }
  | { kind: 'assign'; row: TStudyListRow }
  | null;

/**
 * The dialogs a study list opens itself (column settings, Create Study, upload images, forward to
 * PACS, zip download progress, Assign doctor on an assignor's double click). Each is mounted only while open, so it starts fresh every time.
 */
export function useStudyListDialogs(tableKey: TTableKey, columns: readonly TResolvedColumn[]) {
  const [open, setOpen] = useState<TOpenDialog>(null);
  const { flags } = useSignedInSession();
  const confirm = useConfirm();
  const { showError } = useSnackbar();
  const [zipRequest, setZipRequest] = useState<TZipRequest | null>(null);
  const close = () => setOpen(null);

  /** spec-core §5: a study not fully uploaded or past its backup duration is refused first. */
  const downloadZips = (rows: readonly TStudyListRow[]) => {
    const now = new Date();
    const allowed = rows.filter((row) => {
      const refusal = zipDownloadRefusal({
        ...row,
        durationOfBackupInMonth: flags.durationOfBackupInMonth,
        now,
      });
      if (refusal) showError(refusal);
      return refusal === null;
    });
    if (allowed.length > 0) setZipRequest((r) => ({ id: (r?.id ?? 0) + 1, rows: allowed }));
  };

  const openUpload = async (row: TStudyListRow) => {
    // spec-core §4: uploading a study to a center asks for confirmation first.
    const ok = await confirm({ title: 'Upload images', message: CONFIRMATIONS.uploadStudyToCenter.text });
    if (ok) openWhenLoaded(UploadStudyDialog, () => setOpen({ kind: 'upload', row }));
  };

  const dialogs = (
    <>
      <Suspense fallback={null}>{zipRequest && <ZipDownloadHost request={zipRequest} />}</Suspense>
      <Suspense fallback={null}>
        {open?.kind === 'columns' && (
          <ColumnSettingsDialog tableKey={tableKey} columns={columns} onClose={close} />
        )}
        {open?.kind === 'createStudy' && <CreateStudyDialog open onClose={close} />}
        {open?.kind === 'upload' && <UploadStudyDialog open reportStatusId={open.row.id} onClose={close} />}
        {open?.kind === 'forward' && (
          <PacsForwardDialog
            open
            reportStatusId={open.row.id}
            // A center user's own center whatever is named; group staff need the study's.
            centerId={open.row.centerId ?? null}
            onClose={close}
          />
        )}
        {/* The dialog marks the lists stale itself (TStudyDialogProps). */}
        {open?.kind === 'assign' && (
          <AssignDoctorDialog row={open.row} onClose={close} onChanged={() => undefined} />
        )}
      </Suspense>
    </>
  );

  return {
    dialogs,
    // Each opens once its chunk is in (lib/preloadable.ts: no suspense throttle).
    openColumns: () => openWhenLoaded(ColumnSettingsDialog, () => setOpen({ kind: 'columns' })),
    openCreateStudy: () => openWhenLoaded(CreateStudyDialog, () => setOpen({ kind: 'createStudy' })),
    openUpload: (row: TStudyListRow) => void openUpload(row),
    openForward: (row: TStudyListRow) =>
      openWhenLoaded(PacsForwardDialog, () => setOpen({ kind: 'forward', row })),
    openAssign: (row: TStudyListRow) =>
      openWhenLoaded(AssignDoctorDialog, () => setOpen({ kind: 'assign', row })),
    downloadZips,
  };
}
