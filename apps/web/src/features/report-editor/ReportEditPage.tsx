import Box from '@mui/material/Box';
import { MESSAGES, canChat } from '@radflow/core';
import { Suspense } from 'react';
import { useParams } from 'react-router';
import { FullPageMessage } from '../../components/FullPageMessage';
import { useSignedInSession } from '../auth/session';
import { ReportEditorPanel } from './ReportEditorPanel';
import { StudyHeader } from './StudyHeader';
import { preloadable } from '../../lib/preloadable';

// The chat beside the editor loads with its own chunk, after the editor.
const ReportChatAside = preloadable(() => import('../chat/ReportChatAside'));

/**
 * /report-edit/:studyInstanceUids/:id (spec-core §2, edit-only): the study header and the editor,
 * with the study's chat beside it for those who take part in it (core canChat).
 */
export default function ReportEditPage() {
  const { id: idParam = '' } = useParams();
  const { roles } = useSignedInSession();
  const id = Number(idParam);
  if (!Number.isInteger(id) || id <= 0) return <FullPageMessage text={MESSAGES.notFound} />;
  return (
    <Box
      sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', mx: 'auto', width: '100%', maxWidth: 1600 }}
    >
      <Box
        sx={{ display: 'flex', flexDirection: 'column', maxWidth: 1200, flex: 1, minWidth: 0, mx: 'auto' }}
      >
        <ReportEditorPanel reportStatusId={id} header={(row) => <StudyHeader row={row} />} />
      </Box>
      {canChat(roles) && (
        <Suspense fallback={null}>
          <ReportChatAside study={{ id }} />
        </Suspense>
      )}
    </Box>
  );
}
