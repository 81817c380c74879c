import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { type TReportSearchHit, formatPersonName } from '@radflow/core';
import { Link as RouterLink } from 'react-router';
import { formatTimestamp } from '../../lib/format';
import { SnippetText } from './SnippetText';

/** spec-core §2 Route table: the report of the row, as the study list opens it. */
export function reportPathOf(hit: Pick<TReportSearchHit, 'id' | 'study_instanceuid' | 'api_version'>) {
  return `/report-edit/${encodeURIComponent(hit.study_instanceuid)}/${hit.id}?v=${hit.api_version}`;
}

/** One found report: who, what study, when signed off, where the words are, its tags. */
export function ReportSearchCard({ hit }: { hit: TReportSearchHit }) {
  const patient = formatPersonName(hit.patient_name) || 'Unnamed patient';
  const ageSex = [hit.patient_age, hit.patient_sex].filter(Boolean).join(' / ');
  const reportNames = hit.report_with_content.map((r) => r.name).filter(Boolean);
  return (
    <Card variant="outlined" component="article" aria-label={`Report of ${patient}`}>
      <CardContent sx={{ pb: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, flexWrap: 'wrap', mb: 0.5 }}>
          <Typography variant="h2" component="h2" sx={{ fontSize: '1.1em', fontWeight: 600 }}>
            {patient}
          </Typography>
          {ageSex && <Typography color="text.secondary">{ageSex}</Typography>}
          {hit.patient_id && <Typography color="text.secondary">ID {hit.patient_id}</Typography>}
          {hit.modality && <Chip size="small" label={hit.modality} />}
        </Box>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {[hit.study_description || reportNames[0], hit.center_name].filter(Boolean).join(' · ')}
          {' · Study '}
          {hit.study_date ?? '—'}
          {' · Signed off '}
          {formatTimestamp(hit.signed_off_at)}
        </Typography>
        <SnippetText parts={hit.snippet} />
        {hit.reportTag.length > 0 && (
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 1 }} aria-label="Tags">
            {hit.reportTag.map((t) => (
              <Chip key={t.id} size="small" variant="outlined" label={t.tag} />
            ))}
          </Box>
        )}
      </CardContent>
      <CardActions sx={{ pt: 0 }}>
        <Button component={RouterLink} to={reportPathOf(hit)} size="small">
          Open report
        </Button>
      </CardActions>
    </Card>
  );
}
