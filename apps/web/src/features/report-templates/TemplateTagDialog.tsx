import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TReportTemplate } from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSnackbar } from '../../components/feedback/feedback-context';
import { TEMPLATES_QUERY_KEY, requestOf, updateTemplate } from './report-templates.api';
import { TemplateTagFields, type TTemplateTags } from './TemplateTagFields';
import { refusalText } from './template-rules';

/**
 * The template tag editor (spec-core §2 dialogs; §3 Template tags: body part, modality, gender): the
 * tags decide which studies the editor's chooser offers the template for.
 */
export function TemplateTagDialog({ template, onClose }: { template: TReportTemplate; onClose: () => void }) {
  const [tags, setTags] = useState<TTemplateTags>({
    modalities: template.modalities,
    bodyParts: template.bodyParts,
    gender: template.gender,
  });
  const queryClient = useQueryClient();
  const { showInfo } = useSnackbar();
  const save = useMutation({
    mutationFn: () => updateTemplate(template.id, { ...requestOf(template), ...tags }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: TEMPLATES_QUERY_KEY });
      showInfo('Template tags updated');
      onClose();
    },
  });
  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Template tags</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography color="textSecondary">
            {template.name}: offered in the editor for studies that match every tag set here.
          </Typography>
          {save.error && <Alert severity="error">{refusalText(save.error)}</Alert>}
          <TemplateTagFields value={tags} onChange={setTags} disabled={save.isPending} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={() => save.mutate()} loading={save.isPending}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
