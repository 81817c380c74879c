import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../../test/render';
import type { TLoadedSeries, TViewerDataSource } from '../data-source/dicomweb-source';
import { MprButton } from './MprButton';
import { useMpr } from './useMpr';

const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const content = { studyInstanceUid: '1.2', seriesInstanceUid: '1.2.3' };

/** A series of `count` axial slices, `step` mm apart. */
function seriesOf(count: number, step = 2.5, frames = 1): TLoadedSeries {
  const stack = Array.from({ length: count }, (_, i) => ({
    sopInstanceUid: `1.2.3.${i}`,
    frames,
    imageIds: [`wadors:x/${i}`],
    metadata: {
      '00200032': { vr: 'DS', Value: [0, 0, -i * step] },
      '00200037': { vr: 'DS', Value: [1, 0, 0, 0, 1, 0] },
      '00280010': { vr: 'US', Value: [128] },
      '00280011': { vr: 'US', Value: [128] },
      '00280030': { vr: 'DS', Value: [1, 1] },
    },
  }));
  return {
    ...content,
    stack,
    imageIds: stack.flatMap((s) => s.imageIds),
    syntaxOf: new Map(stack.map((s) => [s.sopInstanceUid, EXPLICIT_LE])),
  };
}

const sourceOf = (series: TLoadedSeries): TViewerDataSource => ({
  listSeries: () => Promise.resolve([]),
  loadSeries: () => Promise.resolve(series),
  thumbnailUrl: () => '',
});

function Harness({ series, modality }: { series: TLoadedSeries; modality: string }) {
  const mpr = useMpr({ source: sourceOf(series), content, modality, keysEnabled: true });
  return (
    <>
      <MprButton availability={mpr.availability} on={mpr.shown !== null} onToggle={mpr.toggle} />
      <output>{mpr.shown ? 'MPR shows' : 'stack shows'}</output>
    </>
  );
}

/** A ceiling for the series query to answer, not a wait (a loaded machine is slow). */
const CEILING = { timeout: 10_000 };

const mprButton = () => screen.queryByRole('button', { name: 'MPR' });

describe('the MPR button (issue 5 §3)', () => {
  it('is enabled for a CT volume; the button and the v key switch MPR on and off', async () => {
    renderScreen(<Harness series={seriesOf(40)} modality="CT" />);
    await waitFor(() => expect(mprButton()?.hasAttribute('disabled')).toBe(false), CEILING);
    expect(mprButton()?.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(mprButton()!);
    expect(screen.getByText('MPR shows')).toBeTruthy();
    expect(mprButton()?.getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(window, { key: 'v' });
    expect(screen.getByText('stack shows')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'v' });
    expect(screen.getByText('MPR shows')).toBeTruthy();
  });

  it('is disabled with a tooltip saying why when the series forms no volume', async () => {
    renderScreen(<Harness series={seriesOf(2)} modality="MR" />);
    await waitFor(() => expect(mprButton()?.hasAttribute('disabled')).toBe(true), CEILING);
    fireEvent.mouseOver(mprButton()!.parentElement!);
    expect((await screen.findByRole('tooltip', {}, CEILING)).textContent).toBe(
      'MPR needs a series of evenly spaced parallel slices: it needs at least 3 slices.',
    );
    fireEvent.keyDown(window, { key: 'v' });
    expect(screen.getByText('stack shows')).toBeTruthy();
  });

  it('is disabled for a multi-frame series', async () => {
    renderScreen(<Harness series={seriesOf(4, 2.5, 20)} modality="CT" />);
    await waitFor(() => expect(mprButton()?.hasAttribute('disabled')).toBe(true), CEILING);
  });

  it('is absent for other modalities', async () => {
    renderScreen(<Harness series={seriesOf(40)} modality="US" />);
    await screen.findByText('stack shows', {}, CEILING);
    expect(mprButton()).toBeNull();
  });
});
