import { describe, expect, it } from 'vitest';
import {
  TEST_ATTRIBUTE_MESSAGES as M,
  ZLabTestAttributesData,
  ZTestAttributeDefinition,
  attributeChoicesFor,
} from './test-attributes.js';

const film = {
  type: 'MODALITY_BASED_FILM_SIZE',
  modality: 'DX',
  filmSize: [
    { size: '10x12', price: 100, default: false },
    { size: '14x17', price: 150, default: true },
  ],
};
const contrast = {
  type: 'MODALITY_BASED_CONTRAST',
  modality: 'CT',
  contrastVolume: [
    { volume: '50 ml', price: 800, default: false },
    { volume: '100 ml', price: 1200, default: false },
  ],
};
const messageOf = (
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  v: unknown,
) => {
  const r = schema.safeParse(v);
  return r.success ? null : r.error!.issues[0]!.message;
};

describe('attribute definitions (spec-lab §3, §9)', () => {
  it('defaults the modality to DX for film size and CT for contrast', () => {
    expect(
      ZTestAttributeDefinition.parse({ type: 'MODALITY_BASED_FILM_SIZE', filmSize: film.filmSize }).modality,
    ).toBe('DX');
    expect(
      ZTestAttributeDefinition.parse({
        type: 'MODALITY_BASED_CONTRAST',
        contrastVolume: contrast.contrastVolume,
      }).modality,
    ).toBe('CT');
  });

  it.each([
    [
      'two defaults',
      { ...film, filmSize: film.filmSize.map((c) => ({ ...c, default: true })) },
      M.oneDefault,
    ],
    ['a size twice', { ...film, filmSize: [film.filmSize[0], film.filmSize[0]] }, M.duplicateChoice('10x12')],
    ['no choices', { ...film, filmSize: [] }, M.choicesRequired],
    ['an empty size', { ...film, filmSize: [{ size: ' ', price: 1 }] }, M.sizeRequired],
    ['a bad price', { ...contrast, contrastVolume: [{ volume: '5', price: 1.001 }] }, M.priceInvalid],
  ])('refuses %s', (_name, definition, message) => {
    expect(messageOf(ZTestAttributeDefinition, definition)).toBe(message);
  });

  it('one definition of each kind per modality', () => {
    expect(messageOf(ZLabTestAttributesData, { data: [film, contrast] })).toBeNull();
    expect(messageOf(ZLabTestAttributesData, { data: [film, { ...contrast, modality: 'DX' }] })).toBeNull();
    expect(messageOf(ZLabTestAttributesData, { data: [film, film] })).toBe(M.duplicateModality('DX'));
  });
});

describe('attributeChoicesFor', () => {
  const { data } = ZLabTestAttributesData.parse({ data: [film, contrast] });
  it.each([
    ['DX', ['10x12', '14x17'], '14x17', null, null],
    ['CT', null, null, ['50 ml', '100 ml'], null],
    ['MR', null, null, null, null],
  ])('%s', (modality, sizes, defaultSize, volumes, defaultVolume) => {
    const got = attributeChoicesFor(data, modality);
    expect(got.filmSize?.choices.map((c) => c.size) ?? null).toEqual(sizes);
    expect(got.filmSize?.defaultChoice?.size ?? null).toBe(defaultSize);
    expect(got.contrast?.choices.map((c) => c.volume) ?? null).toEqual(volumes);
    expect(got.contrast?.defaultChoice?.volume ?? null).toBe(defaultVolume);
  });
});
