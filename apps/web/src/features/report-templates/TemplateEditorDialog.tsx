import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { REPORTING_MESSAGES, TEMPLATE_NAME_MAX, type TReportTemplate } from '@radflow/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSnackbar } from '../../components/feedback/feedback-context';
import type { Editor } from '@tiptap/react';
import { useSignedInSession } from '../auth/session';
// The report editor itself (not its index, which imports the template chooser back): a template
// is written with the tools, tables and default font of the reports it will start.
import { ReportEditor } from '../report-editor/ReportEditor';
import { MicButton } from '../voice-typing';
import { TEMPLATES_QUERY_KEY, createTemplate, updateTemplate } from './report-templates.api';
import { TemplateTagFields, type TTemplateTags } from './TemplateTagFields';
import { refusalText } from './template-rules';

/**
 * Create or edit a template: its name and text (the report editor: TipTap with tables, the user's
 * default font, the mic button); a new one also takes its tags. The server's refusal (a name taken, creating disabled for
 * radiologists, not the owner) is shown in the dialog.
 */
export function TemplateEditorDialog({
  template,
  onClose,
}: {
  /** null: a new template. */
  template: TReportTemplate | null;
  onClose: () => void;
}) {
  const [name, setName] = useState(template?.name ?? '');
  const [content, setContent] = useState(template?.content ?? '');
  const [tags, setTags] = useState<TTemplateTags>({
    modalities: template?.modalities ?? [],
    bodyParts: template?.bodyParts ?? [],
    gender: template?.gender ?? null,
  });
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  const editorPrefs = useSignedInSession().preferences.EDITOR_PREFERENCES;
  const queryClient = useQueryClient();
  const { showInfo } = useSnackbar();
  const save = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), content, ...tags };
      return template ? updateTemplate(template.id, body) : createTemplate(body);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: TEMPLATES_QUERY_KEY });
      showInfo(template ? 'Template updated' : 'Template created');
      onClose();
    },
  });

  const onSave = () => {
    if (!name.trim()) {
      setNameProblem(REPORTING_MESSAGES.templateNameRequired);
      return;
    }
    setNameProblem(null);
    save.mutate();
  };

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="md">
      <DialogTitle>{template ? 'Edit template' : 'New template'}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {save.error && <Alert severity="error">{refusalText(save.error)}</Alert>}
          <TextField
            label="Template name"
            required
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setNameProblem(null);
            }}
            error={Boolean(nameProblem)}
            helperText={nameProblem ?? ' '}
            slotProps={{ htmlInput: { maxLength: TEMPLATE_NAME_MAX } }}
            disabled={save.isPending}
          />
          <ReportEditor
            label="Template text"
            initialContent={template?.content ?? ''}
            editable={!save.isPending}
            fontSize={editorPrefs.defaultEditorFontSize}
            fontFamily={editorPrefs.defaultEditorFontFamily}
            onChange={setContent}
            onEditor={setEditor}
            tools={<MicButton editor={editor} />}
          />
          {!template && <TemplateTagFields value={tags} onChange={setTags} disabled={save.isPending} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button variant="contained" onClick={onSave} loading={save.isPending}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
