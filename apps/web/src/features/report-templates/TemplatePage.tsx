import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import LocalOfferIcon from '@mui/icons-material/LocalOfferOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { TReportTemplate } from '@radflow/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { useFeedback } from '../../components/feedback/feedback-context';
import { formatTimestamp } from '../../lib/format';
import { useSignedInSession } from '../auth/session';
import {
  TEMPLATES_QUERY_KEY,
  deleteTemplate,
  fetchTemplates,
  templatesQueryKey,
} from './report-templates.api';
import { TemplateEditorDialog } from './TemplateEditorDialog';
import { TemplateTagDialog } from './TemplateTagDialog';
import { filterTemplates, previewText, refusalText, tagSummary, templatePermissions } from './template-rules';

type TOpenDialog =
  { kind: 'edit'; template: TReportTemplate | null } | { kind: 'tags'; template: TReportTemplate };

/**
 * /template-page (spec-core §2; issue 7 §1): the caller's and the group's report templates, a filter
 * box, create / edit / delete and the template tag editor. The write buttons follow core
 * checkTemplateWriter (hidden for a sole doctor with disableCreateTemplateOptionToRadiologist) and
 * canChangeTemplate (the owner or a group admin); the server's refusal is shown when it disagrees.
 */
export function TemplatePage() {
  const { roles, flags } = useSignedInSession();
  const permissions = templatePermissions(roles, flags);
  const [filter, setFilter] = useState('');
  const [dialog, setDialog] = useState<TOpenDialog | null>(null);
  const { confirm, showError, showInfo } = useFeedback();
  const queryClient = useQueryClient();
  const templates = useQuery({
    queryKey: templatesQueryKey({}),
    queryFn: ({ signal }) => fetchTemplates({}, signal),
  });
  const shown = filterTemplates(templates.data ?? [], filter);

  const remove = useMutation({
    mutationFn: deleteTemplate,
    onSuccess: () => showInfo('Template deleted'),
    onError: (error) => showError(refusalText(error)),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: TEMPLATES_QUERY_KEY }),
  });

  const onDelete = async (template: TReportTemplate) => {
    const sure = await confirm({
      title: 'Delete template',
      message: `Delete the template "${template.name}"? It cannot be brought back.`,
      confirmLabel: 'Delete',
    });
    if (!sure) return;
    remove.mutate(template.id);
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <PageHeader
        title="Manage template"
        actions={
          permissions.canCreate && (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={() => setDialog({ kind: 'edit', template: null })}
            >
              New template
            </Button>
          )
        }
      />
      <TextField
        label="Filter templates"
        placeholder="Name, modality, body part or owner"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        size="small"
        sx={{ mb: 2, width: { xs: '100%', sm: 360 } }}
      />
      {templates.isPending ? (
        <CircularProgress aria-label="Loading templates" size={24} />
      ) : templates.isError ? (
        <Alert severity="error">{refusalText(templates.error)}</Alert>
      ) : shown.length === 0 ? (
        <Typography color="textSecondary">
          {templates.data.length === 0
            ? 'No templates yet.' + (permissions.canCreate ? ' Create one with New template.' : '')
            : 'No template matches the filter.'}
        </Typography>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="Templates">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Tags</TableCell>
                <TableCell>Owner</TableCell>
                <TableCell>Updated</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((template) => (
                <TableRow key={template.id} hover>
                  <TableCell>
                    <Typography variant="body2" sx={{ fontWeight: 600 }}>
                      {template.name}
                    </Typography>
                    <Typography variant="caption" color="textSecondary">
                      {previewText(template.content, 100)}
                    </Typography>
                  </TableCell>
                  <TableCell>{tagSummary(template)}</TableCell>
                  <TableCell>{template.isOwn ? 'You' : template.owner}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(template.updatedAt)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {permissions.canChange(template) && (
                      <>
                        <Tooltip title="Edit">
                          <IconButton
                            size="small"
                            aria-label={`Edit ${template.name}`}
                            onClick={() => setDialog({ kind: 'edit', template })}
                          >
                            <EditIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                        <Tooltip title="Template tags">
                          <IconButton
                            size="small"
                            aria-label={`Tags of ${template.name}`}
                            onClick={() => setDialog({ kind: 'tags', template })}
                          >
                            <LocalOfferIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                        <Tooltip title="Delete">
                          <IconButton
                            size="small"
                            aria-label={`Delete ${template.name}`}
                            onClick={() => void onDelete(template)}
                          >
                            <DeleteIcon fontSize="small" />
                          </IconButton>
                        </Tooltip>
                      </>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {dialog?.kind === 'edit' && (
        <TemplateEditorDialog template={dialog.template} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'tags' && (
        <TemplateTagDialog template={dialog.template} onClose={() => setDialog(null)} />
      )}
    </Box>
  );
}

export default TemplatePage;
