import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { SHARE_MESSAGES, type TSharePage, type TShareReport } from '@radflow/core';
import { formatTimestamp } from '../../lib/format';
import { ShareImageViewer } from './ShareImageViewer';
import { sharePdfUrl } from './share-page.api';

export const SHARE_VIEW_LABELS = {
  study: 'Study',
  report: 'Report',
  addendum: 'Addendum',
  downloadPdf: 'Download PDF',
  signedBy: 'Signed by',
  images: 'Images',
  expires: (at: string, timeZone: string) => `This link opens until ${formatTimestamp(at, { timeZone })}.`,
} as const;

function Facts({ page }: { page: TSharePage }) {
  const facts: Array<[string, string]> = [
    ['Patient', page.patientName],
    ['Patient ID', page.patientId],
    ['Age / Sex', [page.patientAge, page.patientSex].filter(Boolean).join(' / ')],
    ['Study', page.studyName],
    ['Modality', page.modality],
    ['Study date', page.studyDate],
    ['Center', page.center],
    ['Referring physician', page.referringPhysician],
  ];
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
    >
      {facts
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" color="textSecondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0 }}>
              {value}
            </Typography>
          </Box>
        ))}
    </Box>
  );
}

/** The page is public (no session): its times are in the zone its answer carries, the group's. */
function ReportSheet({ report, timeZone }: { report: TShareReport; timeZone: string }) {
  const title = report.isAddendum ? SHARE_VIEW_LABELS.addendum : report.name;
  return (
    <Box component="article" aria-label={title}>
      {report.isAddendum && (
        <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1 }}>
          {title}
        </Typography>
      )}
      {/* The server keeps only cleaned HTML (sanitizeReportHtml on every save). */}
      <Box
        className="report-content"
        sx={{
          '& img': { maxWidth: '100%' },
          '& table': { borderCollapse: 'collapse' },
          '& td, & th': { border: '1px solid #999', p: 0.5 },
        }}
        dangerouslySetInnerHTML={{ __html: report.content }}
      />
      {report.signature && (
        <Box sx={{ mt: 2 }}>
          {report.signature.imageUrl && (
            <Box
              component="img"
              src={report.signature.imageUrl}
              alt={`Signature of ${report.signature.name}`}
              sx={{ maxHeight: 60, display: 'block' }}
            />
          )}
          <Typography variant="body2">
            {SHARE_VIEW_LABELS.signedBy} {report.signature.name},{' '}
            {formatTimestamp(report.signature.signedOffAt, { timeZone })}
          </Typography>
        </Box>
      )}
    </Box>
  );
}

/** The opened link: the study facts, the report (or 'not ready'), its PDF and the images. */
export function ShareStudyView({ link, page }: { link: string; page: TSharePage }) {
  return (
    <Stack spacing={3} sx={{ maxWidth: 960, mx: 'auto', width: '100%', p: { xs: 1.5, md: 3 } }}>
      <Paper component="section" aria-label={SHARE_VIEW_LABELS.study} sx={{ p: 2 }}>
        <Typography variant="h5" component="h1" sx={{ mb: 1.5 }}>
          {page.patientName || SHARE_VIEW_LABELS.study}
        </Typography>
        <Facts page={page} />
        {page.expiresAt && (
          <Typography variant="caption" color="textSecondary" sx={{ display: 'block', mt: 1 }}>
            {SHARE_VIEW_LABELS.expires(page.expiresAt, page.displayTimeZone)}
          </Typography>
        )}
      </Paper>
      <Paper component="section" aria-label={SHARE_VIEW_LABELS.report} sx={{ p: 2 }}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1.5 }}>
          <Typography variant="h6" component="h2">
            {SHARE_VIEW_LABELS.report}
          </Typography>
          {page.isReportReady && (
            <Button variant="contained" startIcon={<DownloadIcon />} href={sharePdfUrl(link)} download>
              {SHARE_VIEW_LABELS.downloadPdf}
            </Button>
          )}
        </Stack>
        {page.isReportReady ? (
          // Paper-like: a report reads as printed, whatever the app's theme.
          <Stack
            spacing={2}
            divider={<Divider />}
            sx={{ bgcolor: 'common.white', color: 'grey.900', p: 2, borderRadius: 1 }}
          >
            {page.reports.map((report, index) => (
              <ReportSheet key={index} report={report} timeZone={page.displayTimeZone} />
            ))}
          </Stack>
        ) : (
          <Alert severity="info">{SHARE_MESSAGES.reportNotReady}</Alert>
        )}
      </Paper>
      {page.hasImages && (
        <Paper sx={{ p: 2 }}>
          <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
            {SHARE_VIEW_LABELS.images}
          </Typography>
          <ShareImageViewer link={link} />
        </Paper>
      )}
    </Stack>
  );
}
