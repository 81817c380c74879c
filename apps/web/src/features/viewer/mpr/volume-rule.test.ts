import { describe, expect, it } from 'vitest';
import { mprAvailability, type TVolumeSlice } from './volume-rule';

const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const AXIAL = [1, 0, 0, 0, 1, 0];

function slice(
  z: number,
  overrides: {
    orientation?: number[];
    position?: number[];
    rows?: number;
    columns?: number;
    spacing?: number[];
    frames?: number;
    syntax?: string;
  } = {},
): TVolumeSlice {
  return {
    metadata: {
      '00200032': { vr: 'DS', Value: overrides.position ?? [-125, -125, z] },
      '00200037': { vr: 'DS', Value: overrides.orientation ?? AXIAL },
      '00280010': { vr: 'US', Value: [overrides.rows ?? 128] },
      '00280011': { vr: 'US', Value: [overrides.columns ?? 128] },
      '00280030': { vr: 'DS', Value: overrides.spacing ?? [0.9765625, 0.9765625] },
    },
    frames: overrides.frames ?? 1,
    transferSyntaxUid: overrides.syntax ?? EXPLICIT_LE,
  };
}

/** `count` axial slices 2.5 mm apart, in shuffled order (the rule sorts by position). */
const evenSeries = (count: number) =>
  Array.from({ length: count }, (_, i) => slice(-(((i * 7) % count) * 2.5)));

const reasonOf = (modality: string, slices: TVolumeSlice[] | null) => {
  const availability = mprAvailability(modality, slices);
  return availability.state === 'disabled' ? availability.reason : availability.state;
};

describe('mprAvailability (issue 5 §3: MPR for CT and MR series that form a volume)', () => {
  it('is ready for evenly spaced parallel single-frame CT and MR slices, whatever their order', () => {
    expect(mprAvailability('CT', evenSeries(40))).toEqual({ state: 'ready' });
    expect(mprAvailability('mr', evenSeries(3))).toEqual({ state: 'ready' });
  });

  it('is ready for oblique slices stacked along their own normal', () => {
    const c = Math.SQRT1_2;
    const oblique = [1, 0, 0, 0, c, -c];
    // normal = row × column = (0, c, c)
    const series = [0, 1, 2, 3].map((i) =>
      slice(0, { orientation: oblique, position: [0, i * 3 * c, i * 3 * c] }),
    );
    expect(mprAvailability('MR', series)).toEqual({ state: 'ready' });
  });

  it('is absent for modalities other than CT and MR', () => {
    for (const modality of ['US', 'CR', 'DX', 'XA', 'MG', 'PT', '']) {
      expect(mprAvailability(modality, evenSeries(40))).toEqual({ state: 'absent' });
    }
  });

  it('is disabled while the series is loading', () => {
    expect(reasonOf('CT', null)).toMatch(/loading/);
  });

  it('says why when the series is no volume', () => {
    const general = /^MPR needs a series of evenly spaced parallel slices: /;
    expect(reasonOf('CT', evenSeries(2))).toMatch(general);
    expect(reasonOf('CT', evenSeries(2))).toMatch(/at least 3 slices/);
    expect(reasonOf('CT', [...evenSeries(3), slice(-10, { frames: 30 })])).toMatch(/multi-frame/);
    expect(reasonOf('CT', [...evenSeries(3), slice(-7.5, { syntax: '1.2.840.10008.1.2.4.92' })])).toMatch(
      /cannot decode/,
    );
    expect(reasonOf('CT', [...evenSeries(3), slice(-7.5, { orientation: [0, 1, 0, 0, 0, -1] })])).toMatch(
      /not parallel/,
    );
    expect(reasonOf('CT', [...evenSeries(3), slice(-7.5, { rows: 256 })])).toMatch(/size or pixel spacing/);
    expect(reasonOf('CT', [...evenSeries(3), slice(-7.5, { spacing: [0.5, 0.5] })])).toMatch(
      /size or pixel spacing/,
    );
    const noPosition = slice(-7.5);
    delete noPosition.metadata['00200032'];
    expect(reasonOf('CT', [...evenSeries(3), noPosition])).toMatch(/no position/);
  });

  it('refuses duplicates, gaps and uneven spacing, within a tolerance for rounding', () => {
    expect(reasonOf('CT', [...evenSeries(5), slice(-5)])).toMatch(/share a position/);
    const gap = evenSeries(10).filter((_, i) => i !== 4);
    expect(reasonOf('CT', gap)).toMatch(/unevenly spaced or have gaps/);
    const uneven = [0, -2.5, -5, -8.5, -11].map((z) => slice(z));
    expect(reasonOf('CT', uneven)).toMatch(/unevenly spaced/);
    const rounded = [0, -2.5001, -4.9998, -7.5002].map((z) => slice(z));
    expect(mprAvailability('CT', rounded)).toEqual({ state: 'ready' });
  });

  it('refuses a gantry tilt (positions stepping sideways as well as along the normal)', () => {
    const tilted = [0, 1, 2, 3].map((i) => slice(0, { position: [-125, -125 + i * 1.5, -i * 2.5] }));
    expect(reasonOf('CT', tilted)).toMatch(/gantry tilt/);
  });
});
