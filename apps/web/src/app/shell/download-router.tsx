import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ROUTER_PLATFORMS, type TRouterLatest, type TRouterPlatform, ZRouterLatest } from '@radflow/core';
import type { ReactNode } from 'react';
import { ApiError, apiRequest } from '../../api/client';

const PLATFORM_LABEL: Record<TRouterPlatform, string> = { linux: 'Linux', windows: 'Windows' };

type TOffer = { platform: TRouterPlatform } & ({ latest: TRouterLatest } | { error: string });

/** The newest router build per platform (GET /api/router/latest), or why there is none. */
export async function loadRouterOffers(): Promise<TOffer[]> {
  return Promise.all(
    ROUTER_PLATFORMS.map(async (platform): Promise<TOffer> => {
      try {
        const latest = await apiRequest(`/api/router/latest?platform=${platform}`, {
          quiet: true,
          schema: ZRouterLatest,
        });
        return { platform, latest };
      } catch (error) {
        return { platform, error: error instanceof ApiError ? error.message : String(error) };
      }
    }),
  );
}

/**
 * What 'Download router' shows (issue 27 §5): per platform the version, a download link and the
 * SHA-256 to check the file against before installing it (INSTALL.txt inside says how).
 */
export function RouterDownloads({ offers }: { offers: TOffer[] }): ReactNode {
  return (
    <Stack spacing={2}>
      <Typography variant="body2">
        The Radflow router receives images from your modalities and uploads them with resume. It needs Node.js
        20 or newer on the PC; unzip and run the installer (INSTALL.txt inside).
      </Typography>
      {offers.map((offer) => (
        <Stack key={offer.platform} spacing={0.5}>
          <Typography variant="subtitle2">{PLATFORM_LABEL[offer.platform]}</Typography>
          {'latest' in offer ? (
            <>
              <Link href={offer.latest.url} download>
                Download version {offer.latest.version} ({Math.ceil(offer.latest.size / 1024)} KB)
              </Link>
              <Typography variant="caption" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
                SHA-256: {offer.latest.sha256}
              </Typography>
            </>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {offer.error}
            </Typography>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
