import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import {
  formatDicomText,
  hasReportContent,
  mayRaiseCriticalResults,
  readsReportWork,
  readsUnsignedReports,
  type TReport,
  type TReportSaveResponse,
  type TSavedCopy,
  type TStudyDetail,
} from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Editor } from '@tiptap/react';
import { useCallback, useRef, useState } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import { useSignedInSession } from '../auth/session';
import { AudioRecordingsButton } from '../report-audio';
import { CriticalResultsSection } from '../critical-results';
import { DownloadReportMenu } from '../report-documents';
import { MicButton } from '../voice-typing';
import { AddendumSection } from './AddendumSection';
import { PrintPreview } from './PrintPreview';
import { ReportEditor } from './ReportEditor';
import { ReportStatusLine } from './ReportStatusLine';
import { TemplatesButton, templateFactsOf } from './TemplatesButton';
import { VersionsDialog } from './VersionsDialog';
import { SaveConflictDialog } from './SaveConflictDialog';
import { NO_BUTTONS, editorButtonsOf, mainReportOf } from './editor-rules';
import {
  deleteDraft,
  errorText,
  isStaleSave,
  saveReport,
  studyRowQueryKey,
  uploadReportImage,
} from './report-editor-api';
import { useAutoSave } from './useAutoSave';
import { savedCopyOf, type TOpeningText } from './useReportOpening';

/** A snapshot of the image on screen as a PNG (the viewer's active viewport), or null. */
export type TCaptureImage = () => Promise<Blob | null>;

const withoutAlert = ({ alert: _alert, ...row }: TReportSaveResponse): TStudyDetail => row;

/**
 * The opened report: name, editor, buttons by the core rules, status line, versions, print preview
 * and addenda. `readOnlyReason` (a lock refusal, a read-only role) shows the report without writing.
 */
export function ReportWorkspace({
  row,
  reports,
  opening,
  readOnlyReason,
  doctorEmail,
  captureImage,
  draftDelayMs,
  onSaved,
}: {
  row: TStudyDetail;
  reports: readonly TReport[];
  opening: TOpeningText;
  readOnlyReason: string | null;
  doctorEmail: string;
  captureImage?: TCaptureImage;
  draftDelayMs?: number;
  /** Refetches the reports after a write; resolves with the new list. */
  onSaved: () => Promise<readonly TReport[]>;
}) {
  const session = useSignedInSession();
  // Versions are the writers' (core readsUnsignedReports: the server answers others none); audio
  // notes are the staff's, not the read-only roles' (core readsReportWork: the server refuses them).
  const seesVersions = readsUnsignedReports(session.roles);
  const seesWork = readsReportWork(session.roles);
  const me = session.user.email;
  const prefs = session.preferences.EDITOR_PREFERENCES;
  const queryClient = useQueryClient();
  const { confirm, showError, showInfo, showInfoDialog } = useFeedback();
  const main = reports.find((r) => !r.isAddendum) ?? null;
  const buttons =
    readOnlyReason === null
      ? editorButtonsOf({ roles: session.roles, flags: session.flags, me, doctorEmail, row, main })
      : NO_BUTTONS;
  const editable = buttons.canSave || buttons.canSignOff;
  const [name, setName] = useState(opening.name);
  const [content, setContent] = useState(opening.content);
  const baseVersion = useRef(opening.baseVersion);
  // The signed report as signed: nothing to sign off again. The text this editor signed off counts
  // too: the stored one is the cleaned HTML, which may differ from the editor's in form only.
  const signedHere = useRef<string | null>(null);
  const unchangedSignedText =
    row.status === 'SIGNED_OFF' &&
    main !== null &&
    (content === main.content || content === signedHere.current);

  const [versionsOpen, setVersionsOpen] = useState(false);
  const [previewOpen, setPreviewOpen] = useState(false);
  const [editor, setEditor] = useState<Editor | null>(null);
  /** A save refused as stale (issue 21 §7): the newest saved copy and whether it was a sign-off. */
  const [conflict, setConflict] = useState<{ saved: TSavedCopy | null; signOff: boolean } | null>(null);
  const autoSave = useAutoSave({ reportStatusId: row.id, userEmail: me, delayMs: draftDelayMs });

  const lastContent = useRef(opening.content);
  const onContent = useCallback(
    (html: string) => {
      // Only a change of the text is a draft (selection and focus updates are not).
      if (html === lastContent.current) return;
      lastContent.current = html;
      setContent(html);
      autoSave.change({ name, content: html, baseVersion: baseVersion.current });
    },
    [autoSave, name],
  );
  const onName = (next: string) => {
    setName(next);
    autoSave.change({ name: next, content, baseVersion: baseVersion.current });
  };

  /** After a write: the row, the reports and the draft state follow the server. */
  const afterWrite = async (answer: TReportSaveResponse, done: string) => {
    queryClient.setQueryData(studyRowQueryKey(row.id), withoutAlert(answer));
    autoSave.settle();
    await onSaved();
    showInfo(done);
    // spec-core §4: the re-sign-off alert, word for word.
    if (answer.alert) await showInfoDialog({ title: 'Signed off again', message: answer.alert });
  };

  /** Sends the text as a save or sign-off from the version it started from (issue 21 §7). */
  const writeCall = useMutation({
    // The text sent travels with the call: the user may type on while it is saving.
    mutationFn: ({ signOff, sent }: { signOff: boolean; sent: string }) =>
      saveReport(row.id, {
        name: name.trim() || formatDicomText(row.studyName) || 'Report',
        content: sent,
        signOff,
        baseVersion: baseVersion.current,
        ...(buttons.actor === 'TYPIST' ? { doctorEmail } : {}),
      }),
    onSuccess: async (answer, { signOff, sent }) => {
      // The answer's version, not a refetch: another tab may have saved again in between.
      baseVersion.current = answer.savedVersion;
      if (answer.status === 'SIGNED_OFF') signedHere.current = sent;
      setConflict(null);
      let done = 'Report saved';
      if (signOff)
        done = answer.status === 'SIGNED_OFF' ? 'Report signed off' : 'Report sent for verification';
      await afterWrite(answer, done);
    },
    onError: async (error, { signOff }) => {
      if (isStaleSave(error)) {
        // Someone saved after this text was opened: read what they saved and ask.
        const next = await onSaved().catch(() => reports);
        setConflict({ saved: savedCopyOf(mainReportOf(next)), signOff });
      } else showError(errorText(error));
    },
  });
  const busy = writeCall.isPending;
  const write = (signOff: boolean) => writeCall.mutate({ signOff, sent: content });

  const save = async (signOff: boolean) => {
    if (signOff) {
      const ok = await confirm({
        title: buttons.reSignOff ? 'Sign off again' : 'Sign off',
        message: buttons.reSignOff
          ? 'Sign off this report again? The changed report replaces the signed one; a printed copy must be printed again.'
          : 'Sign off this report? It will be final and go to the center.',
        confirmLabel: 'Sign off',
      });
      if (!ok) return;
    }
    write(signOff);
  };

  /** Keep mine: the same text, saved again on top of the newest version (a new version). */
  const keepMine = () => {
    if (!conflict) return;
    baseVersion.current = conflict.saved?.version ?? null;
    write(conflict.signOff);
  };

  /** Reload: the newest saved report replaces this text; the drafts of this text go. */
  const reload = () => {
    if (!conflict) return;
    const saved = conflict.saved;
    const html = saved?.content ?? '';
    baseVersion.current = saved?.version ?? null;
    lastContent.current = html;
    setContent(html);
    if (saved) setName(saved.name);
    editor?.commands.setContent(html, { emitUpdate: false });
    autoSave.settle();
    void deleteDraft(row.id).catch(() => undefined);
    setConflict(null);
  };

  const insertKeyImage = async () => {
    if (!captureImage || !editor) return;
    try {
      const png = await captureImage();
      if (!png) {
        showError('There is no image on screen to insert.');
        return;
      }
      const src = await uploadReportImage(png);
      editor.chain().focus().insertReportImage({ src, alt: 'Key image' }).run();
    } catch (error) {
      showError(errorText(error));
    }
  };

  const tools = (
    <>
      {captureImage ? (
        <Tooltip title="Insert the image on screen">
          <IconButton size="small" aria-label="Insert key image" onClick={() => void insertKeyImage()}>
            <AddPhotoAlternateIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      ) : null}
      <TemplatesButton
        study={templateFactsOf(row)}
        onInsert={(html) => editor?.chain().focus().insertContent(html).run()}
      />
      <MicButton editor={editor} />
    </>
  );

  return (
    <Stack spacing={1} sx={{ p: 1, minHeight: 0, flex: 1 }} data-testid="report-workspace">
      {readOnlyReason ? <Alert severity="info">{readOnlyReason}</Alert> : null}
      {buttons.signOffRefusal ? <Alert severity="info">{buttons.signOffRefusal}</Alert> : null}
      <ReportStatusLine row={row} main={main} autoSave={autoSave.state} />
      <TextField
        size="small"
        label="Report name"
        value={name}
        onChange={(e) => onName(e.target.value)}
        disabled={!editable}
        slotProps={{ htmlInput: { maxLength: 200 } }}
      />
      <ReportEditor
        label="Report"
        initialContent={opening.content}
        editable={editable}
        fontSize={prefs.defaultEditorFontSize}
        fontFamily={prefs.defaultEditorFontFamily}
        onChange={onContent}
        onEditor={setEditor}
        tools={tools}
      />
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        {buttons.canSave ? (
          <Button variant="outlined" disabled={busy} onClick={() => void save(false)}>
            Save
          </Button>
        ) : null}
        {buttons.canSignOff ? (
          <Button
            variant="contained"
            // A sign-off needs some text or image (the server's 'Please write the report'); signing
            // a signed-off report again is for a changed text (issue 21 §7).
            disabled={busy || !hasReportContent(content) || unchangedSignedText}
            onClick={() => void save(true)}
          >
            {buttons.reSignOff ? 'Sign off again' : 'Sign off'}
          </Button>
        ) : null}
        {seesVersions ? (
          <Button disabled={reports.length === 0} onClick={() => setVersionsOpen(true)}>
            Versions
          </Button>
        ) : null}
        {prefs.hideReportPreview ? null : (
          <Button aria-pressed={previewOpen} onClick={() => setPreviewOpen((v) => !v)}>
            {previewOpen ? 'Hide preview' : 'Preview'}
          </Button>
        )}
        <DownloadReportMenu
          row={row}
          isEditing={editable}
          getCustomHtml={editable ? () => content : undefined}
        />
        {seesWork ? <AudioRecordingsButton row={row} /> : null}
      </Stack>
      <CriticalResultsSection
        reportStatusId={row.id}
        // The doctor who holds this report (the lock succeeded) may flag a finding critical, signed
        // off or not (core checkRaiseCriticalResult; the server decides again).
        canRaise={
          readOnlyReason === null && mayRaiseCriticalResults(session.roles) && row.status !== 'DELETED'
        }
      />
      {previewOpen && !prefs.hideReportPreview ? (
        <PrintPreview
          html={content}
          fontSize={prefs.defaultEditorFontSize}
          fontFamily={prefs.defaultEditorFontFamily}
          showImages={prefs.showImagesInPrintPreview}
        />
      ) : null}
      <AddendumSection
        reports={reports}
        canAdd={buttons.canAddendum}
        fontSize={prefs.defaultEditorFontSize}
        fontFamily={prefs.defaultEditorFontFamily}
        reportStatusId={row.id}
        onAdded={(answer) => afterWrite(answer, 'Addendum added')}
      />
      {conflict ? (
        <SaveConflictDialog saved={conflict.saved} busy={busy} onReload={reload} onKeepMine={keepMine} />
      ) : null}
      <Box>
        <VersionsDialog open={versionsOpen} reports={reports} onClose={() => setVersionsOpen(false)} />
      </Box>
    </Stack>
  );
}
