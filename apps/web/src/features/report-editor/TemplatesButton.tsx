import PostAddIcon from '@mui/icons-material/PostAdd';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { TStudyDetail } from '@radflow/core';
import { useId, useState } from 'react';
import { TemplateChooser, type TTemplateChooserProps, type TTemplateSource } from '../report-templates';

/** The facts of a study row the templates are filtered by. */
export const templateFactsOf = (row: TStudyDetail): TTemplateChooserProps['study'] => ({
  modality: row.modality || null,
  bodyPart: row.reportStudyPart[0] ?? null,
  sex: row.patientSex || null,
});

/**
 * The template chooser of the editor (issue 7 §1; H3's TemplateChooser), filtered by the study's
 * modality, body part and sex; the chosen template's HTML goes in at the cursor. `source`: the
 * router's kept templates in the offline editor (HYBRID.md), else the cloud's.
 */
export function TemplatesButton({
  study,
  onInsert,
  source,
}: {
  study: TTemplateChooserProps['study'];
  onInsert: (html: string) => void;
  source?: TTemplateSource;
}) {
  const [open, setOpen] = useState(false);
  const titleId = useId();
  return (
    <>
      <Button size="small" startIcon={<PostAddIcon fontSize="small" />} onClick={() => setOpen(true)}>
        Templates
      </Button>
      {open ? (
        <Dialog open onClose={() => setOpen(false)} aria-labelledby={titleId} fullWidth maxWidth="md">
          <DialogTitle id={titleId}>Insert a template</DialogTitle>
          <DialogContent>
            <TemplateChooser
              study={study}
              {...(source ? { source } : {})}
              onInsert={(html) => {
                setOpen(false);
                onInsert(html);
              }}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>Close</Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </>
  );
}
