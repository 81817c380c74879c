import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TReportTemplate, TReportTemplateQuery } from '@radflow/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchTemplates, templatesQueryKey } from './report-templates.api';
import { filterTemplates, refusalText, tagSummary } from './template-rules';

/**
 * Where the templates come from: the cloud by default; the router offline (HYBRID.md, the doctor's
 * templates kept at their online sign-in). `key` names the source in the query cache.
 */
export interface TTemplateSource {
  key: string;
  load: (query: TReportTemplateQuery, signal: AbortSignal) => Promise<TReportTemplate[]>;
}

const CLOUD_TEMPLATES: TTemplateSource = { key: 'cloud', load: fetchTemplates };

export interface TTemplateChooserProps {
  /** The study's facts the templates are filtered by (issue 7 §1: modality, body part, sex). */
  study: { modality: string | null; bodyPart?: string | null; sex: string | null };
  /** Called with the chosen template's HTML (already cleaned by the server). */
  onInsert: (html: string) => void;
  source?: TTemplateSource;
}

/** The query of the templates that fit a study: each fact only when known. */
export function fittingQuery(study: TTemplateChooserProps['study']): TReportTemplateQuery {
  const query: TReportTemplateQuery = {};
  if (study.modality) query.modality = study.modality;
  if (study.bodyPart) query.bodyPart = study.bodyPart;
  if (study.sex) query.gender = study.sex;
  return query;
}

/**
 * The editor's template chooser (issue 7 §1): the caller's and the group's templates that fit the
 * study (the server's core templateFits), a search box, a preview of the chosen one and Insert. The
 * "Only for this study" switch widens the list to every template.
 */
export function TemplateChooser({ study, onInsert, source = CLOUD_TEMPLATES }: TTemplateChooserProps) {
  const [search, setSearch] = useState('');
  const [onlyFitting, setOnlyFitting] = useState(true);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const query = onlyFitting ? fittingQuery(study) : {};
  const templates = useQuery({
    queryKey: [...templatesQueryKey(query), source.key],
    queryFn: ({ signal }) => source.load(query, signal),
  });
  const shown = filterTemplates(templates.data ?? [], search);
  const chosen = shown.find((t) => t.id === chosenId) ?? null;

  return (
    <Stack spacing={1} sx={{ minWidth: 280 }} aria-label="Templates" role="region">
      <TextField
        size="small"
        label="Search templates"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <FormControlLabel
        control={
          <Switch size="small" checked={onlyFitting} onChange={(e) => setOnlyFitting(e.target.checked)} />
        }
        label="Only for this study"
      />
      {templates.isPending ? (
        <CircularProgress aria-label="Loading templates" size={20} />
      ) : templates.isError ? (
        <Alert severity="error">{refusalText(templates.error)}</Alert>
      ) : shown.length === 0 ? (
        <Typography color="textSecondary" variant="body2">
          No template fits this study.
        </Typography>
      ) : (
        <List dense aria-label="Template list" sx={{ maxHeight: 240, overflowY: 'auto' }}>
          {shown.map((t) => (
            <ListItemButton key={t.id} selected={t.id === chosenId} onClick={() => setChosenId(t.id)}>
              <ListItemText primary={t.name} secondary={tagSummary(t)} />
            </ListItemButton>
          ))}
        </List>
      )}
      {chosen && (
        <>
          <Typography variant="subtitle2">Preview</Typography>
          <Box
            aria-label="Template preview"
            role="document"
            sx={{
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              p: 1,
              maxHeight: 240,
              overflowY: 'auto',
            }}
            // The server cleaned the template HTML (sanitizeReportHtml) before storing it.
            dangerouslySetInnerHTML={{ __html: chosen.content }}
          />
          <Button variant="contained" onClick={() => onInsert(chosen.content)}>
            Insert
          </Button>
        </>
      )}
    </Stack>
  );
}
