import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatDicomText, formatPersonName, type TStudyDetail } from '@radflow/core';

/** The study header of the edit page: patient, age/sex, study, modality, center, history. */
export function StudyHeader({ row }: { row: TStudyDetail }) {
  const items: Array<[string, string]> = [
    ['Patient', formatPersonName(row.patientName) || '—'],
    ['Age/Sex', [row.patientAge, row.patientSex].filter(Boolean).join(' / ') || '—'],
    ['Study', formatDicomText(row.studyName) || '—'],
    ['Modality', row.modality || '—'],
    ['Center', row.radiologyCenter || '—'],
    ['History', row.history || '—'],
  ];
  return (
    <Box
      component="dl"
      aria-label="Study"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
        gap: 1,
        m: 0,
        p: 1.5,
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      {items.map(([label, value]) => (
        <Box key={label} sx={{ minWidth: 0 }}>
          <Typography component="dt" variant="caption" color="text.secondary">
            {label}
          </Typography>
          <Typography
            component="dd"
            variant="body2"
            sx={{ m: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
          >
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
