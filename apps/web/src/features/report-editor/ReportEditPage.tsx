import Box from '@mui/material/Box';
import { MESSAGES } from '@radflow/core';
import { useParams } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage';
import { ReportEditorPanel } from './ReportEditorPanel';
import { StudyHeader } from './StudyHeader';

/** /report-edit/:studyInstanceUids/:id (spec-core §2, edit-only): the study header and the editor. */
export default function ReportEditPage() {
  const { id: idParam = '' } = useParams();
  const id = Number(idParam);
  if (!Number.isInteger(id) || id <= 0) return <FullPageMessage text={MESSAGES.notFound} />;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', maxWidth: 1200, mx: 'auto', width: '100%' }}>
      <ReportEditorPanel reportStatusId={id} header={(row) => <StudyHeader row={row} />} />
    </Box>
  );
}
