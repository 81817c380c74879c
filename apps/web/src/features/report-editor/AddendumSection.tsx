import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { hasReportContent, type TReport, type TReportSaveResponse } from '@radflow/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useFeedback } from '../../components/feedback/feedback-context';
import { formatTimestamp } from '../../lib/format';
import { ReportEditor, reportBodySx } from './ReportEditor';
import { addAddendum, errorText } from './report-editor-api';

/**
 * The addenda of a signed-off report (issue 7 §2 "an addendum after sign-off … with its own signature
 * and time"), and for its doctor an editor of its own to add one.
 */
export function AddendumSection({
  reports,
  canAdd,
  fontSize,
  fontFamily,
  reportStatusId,
  onAdded,
}: {
  reports: readonly TReport[];
  canAdd: boolean;
  fontSize: number;
  fontFamily: string;
  reportStatusId: number;
  onAdded: (answer: TReportSaveResponse) => Promise<void>;
}) {
  const { showError } = useFeedback();
  const [writing, setWriting] = useState(false);
  const [content, setContent] = useState('');
  const add = useMutation({
    mutationFn: (text: string) => addAddendum(reportStatusId, { name: 'Addendum', content: text }),
    onSuccess: async (answer) => {
      setWriting(false);
      setContent('');
      await onAdded(answer);
    },
    onError: (error) => showError(errorText(error)),
  });
  const busy = add.isPending;
  const addenda = reports.filter((r) => r.isAddendum);

  if (addenda.length === 0 && !canAdd) return null;
  return (
    <Stack spacing={1} component="section" aria-label="Addenda">
      {addenda.map((a) => (
        <Box key={a.id} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1 }}>
          <Typography variant="subtitle2">{a.name}</Typography>
          <Box
            sx={{ fontSize: `${fontSize}pt`, fontFamily, ...reportBodySx }}
            dangerouslySetInnerHTML={{ __html: a.content }}
          />
          {a.signature ? (
            <Typography variant="caption" color="text.secondary">
              {`Signed off by ${a.signature.name} at ${formatTimestamp(a.signature.signedOffAt)}`}
            </Typography>
          ) : null}
        </Box>
      ))}
      {canAdd && !writing ? (
        <Button sx={{ alignSelf: 'start' }} onClick={() => setWriting(true)}>
          Add addendum
        </Button>
      ) : null}
      {writing ? (
        <Stack spacing={1}>
          <ReportEditor
            label="Addendum"
            initialContent=""
            editable
            fontSize={fontSize}
            fontFamily={fontFamily}
            onChange={setContent}
          />
          <Stack direction="row" spacing={1}>
            <Button
              variant="contained"
              disabled={busy || !hasReportContent(content)}
              onClick={() => add.mutate(content)}
            >
              Save addendum
            </Button>
            <Button disabled={busy} onClick={() => setWriting(false)}>
              Cancel
            </Button>
          </Stack>
        </Stack>
      ) : null}
    </Stack>
  );
}
