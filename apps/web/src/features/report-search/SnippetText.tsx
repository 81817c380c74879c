import Box from '@mui/material/Box';
import type { TReportSearchSnippetPart } from '@radflow/core';

/**
 * Where the words were found: the server's parts as text children (React escapes them), the matched
 * words in <mark> elements built here — never the report's HTML, never innerHTML.
 */
export function SnippetText({ parts }: { parts: readonly TReportSearchSnippetPart[] }) {
  return (
    <Box component="p" data-testid="report-snippet" sx={{ m: 0, color: 'text.secondary', lineHeight: 1.6 }}>
      {parts.map((part, i) =>
        part.match ? (
          <Box
            component="mark"
            key={i}
            sx={{ bgcolor: 'warning.main', color: 'warning.contrastText', px: 0.25, borderRadius: 0.5 }}
          >
            {part.text}
          </Box>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </Box>
  );
}
