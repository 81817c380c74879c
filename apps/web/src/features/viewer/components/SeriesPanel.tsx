import StarIcon from '@mui/icons-material/Star';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { TSeriesSummary } from '../data-source/dicomweb-source';
import type { TViewportContent } from '../layout';
import { SERIES_DRAG_TYPE } from './ViewportPane';

function Thumbnail({ url, label }: { url: string; label: string }) {
  const [failed, setFailed] = useState(false);
  return (
    <Box
      sx={{
        width: 96,
        height: 96,
        flex: 'none',
        bgcolor: '#000',
        display: 'grid',
        placeItems: 'center',
        overflow: 'hidden',
        borderRadius: 0.5,
      }}
    >
      {failed ? (
        <Typography variant="caption" color="textSecondary">
          No preview
        </Typography>
      ) : (
        <img
          src={url}
          alt={label}
          loading="lazy"
          draggable={false}
          onError={() => setFailed(true)}
          style={{ maxWidth: '100%', maxHeight: '100%' }}
        />
      )}
    </Box>
  );
}

/**
 * The study's series (issue 5 §2): thumbnail, name (after the center's series mapping), number of
 * images and key images; a click shows the series in the active viewport, a drag in any viewport.
 */
export function SeriesPanel({
  studyInstanceUid,
  series,
  nameOf,
  thumbnailUrl,
  shownInActive,
  keyImageCount,
  onOpen,
}: {
  studyInstanceUid: string;
  series: readonly TSeriesSummary[];
  nameOf: (series: TSeriesSummary) => string;
  thumbnailUrl: (seriesInstanceUid: string) => string;
  shownInActive: string | null;
  keyImageCount: (seriesInstanceUid: string) => number;
  onOpen: (content: TViewportContent) => void;
}) {
  return (
    <List dense aria-label="Series" sx={{ p: 0.5 }}>
      {series.map((s) => {
        const content = { studyInstanceUid, seriesInstanceUid: s.seriesInstanceUid };
        const keys = keyImageCount(s.seriesInstanceUid);
        const name = nameOf(s);
        return (
          <ListItemButton
            key={s.seriesInstanceUid}
            selected={shownInActive === s.seriesInstanceUid}
            draggable
            onDragStart={(e) => e.dataTransfer.setData(SERIES_DRAG_TYPE, JSON.stringify(content))}
            onClick={() => onOpen(content)}
            data-testid="series-item"
            sx={{ gap: 1, alignItems: 'flex-start', borderRadius: 1, mb: 0.5 }}
          >
            <Thumbnail url={thumbnailUrl(s.seriesInstanceUid)} label={name} />
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="body2" sx={{ fontWeight: 600, wordBreak: 'break-word' }}>
                {name}
              </Typography>
              <Typography variant="caption" color="textSecondary" component="div">
                {[s.modality, s.seriesNumber !== null ? `#${s.seriesNumber}` : null]
                  .filter(Boolean)
                  .join(' · ')}
              </Typography>
              <Typography variant="caption" color="textSecondary" component="div">
                {s.instanceCount} {s.instanceCount === 1 ? 'image' : 'images'}
              </Typography>
              {keys > 0 && (
                <Typography variant="caption" component="div" sx={{ color: 'warning.main' }}>
                  <StarIcon sx={{ fontSize: 12, verticalAlign: 'middle' }} /> {keys} key{' '}
                  {keys === 1 ? 'image' : 'images'}
                </Typography>
              )}
            </Box>
          </ListItemButton>
        );
      })}
    </List>
  );
}
