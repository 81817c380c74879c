import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { reportBodySx } from './ReportEditor';

/**
 * The report as it will print (issue 7 §1 print preview): the body on an A4-shaped page at the
 * user's default font. Images in the body show only with showImagesInPrintPreview.
 */
export function PrintPreview({
  html,
  fontSize,
  fontFamily,
  showImages,
}: {
  html: string;
  fontSize: number;
  fontFamily: string;
  showImages: boolean;
}) {
  return (
    <Box role="region" aria-label="Print preview" sx={{ bgcolor: 'grey.200', p: 2, overflow: 'auto' }}>
      <Paper
        elevation={2}
        sx={{
          mx: 'auto',
          width: '100%',
          maxWidth: 794,
          aspectRatio: '210 / 297',
          p: '2cm',
          boxSizing: 'border-box',
          overflow: 'hidden',
          bgcolor: '#fff',
          color: '#000',
          fontSize: `${fontSize}pt`,
          fontFamily,
          ...reportBodySx,
          '& img': showImages ? reportBodySx['& img'] : { display: 'none' },
        }}
        // The HTML is the editor's own output or the server's cleaned copy.
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </Box>
  );
}
