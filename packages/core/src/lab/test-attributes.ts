import { z } from 'zod';
import { ALL_LAB_MODALITIES } from '../studies/upload-schemas.js';
import { isRupeeAmount } from './money.js';

/**
 * Test attribute definitions (spec-lab §3): per modality, the film sizes and the contrast volumes a
 * bill line may carry, each with a price and at most one flagged default (§9 "Default film size and
 * contrast volume are those flagged default"). Stored per lab as LAB_TEST_ATTRIBUTES {data}; the bill
 * screen reads the choices of a line's modality with `attributeChoicesFor`.
 */

export const TEST_ATTRIBUTE_TYPES = ['MODALITY_BASED_FILM_SIZE', 'MODALITY_BASED_CONTRAST'] as const;
export type TTestAttributeType = (typeof TEST_ATTRIBUTE_TYPES)[number];

/** spec-lab §9: the modality a new definition starts with. */
export const DEFAULT_ATTRIBUTE_MODALITY: Record<TTestAttributeType, (typeof ALL_LAB_MODALITIES)[number]> = {
  MODALITY_BASED_FILM_SIZE: 'DX',
  MODALITY_BASED_CONTRAST: 'CT',
};

export const TEST_ATTRIBUTE_MESSAGES = {
  sizeRequired: 'Film size is required',
  volumeRequired: 'Contrast volume is required',
  priceInvalid: 'Price must be an amount in rupees of 0 or more with at most two decimals',
  oneDefault: 'Only one choice can be the default',
  duplicateChoice: (choice: string) => `${choice} is listed twice`,
  duplicateModality: (modality: string) => `${modality} already has a definition of this kind`,
  choicesRequired: 'Add at least one choice',
} as const;

const ZPrice = z
  .number({ error: TEST_ATTRIBUTE_MESSAGES.priceInvalid })
  .refine(isRupeeAmount, { error: TEST_ATTRIBUTE_MESSAGES.priceInvalid });

export const ZFilmSizeChoice = z.object({
  size: z.string().trim().min(1, { error: TEST_ATTRIBUTE_MESSAGES.sizeRequired }).max(50),
  price: ZPrice,
  default: z.boolean().default(false),
});
export const ZContrastChoice = z.object({
  volume: z.string().trim().min(1, { error: TEST_ATTRIBUTE_MESSAGES.volumeRequired }).max(50),
  price: ZPrice,
  default: z.boolean().default(false),
});

const ZModality = z.enum(ALL_LAB_MODALITIES);
const CHOICES_MAX = 50;

/** A list's own rules: one default at most, no choice named twice. */
function checkChoices<T extends { default: boolean }>(
  list: readonly T[],
  nameOf: (c: T) => string,
  ctx: z.core.$RefinementCtx,
  key: string,
) {
  if (list.filter((c) => c.default).length > 1) {
    ctx.addIssue({ code: 'custom', path: [key], message: TEST_ATTRIBUTE_MESSAGES.oneDefault });
  }
  const seen = new Set<string>();
  for (const c of list) {
    const name = nameOf(c).toLowerCase();
    if (seen.has(name)) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: TEST_ATTRIBUTE_MESSAGES.duplicateChoice(nameOf(c)),
      });
    }
    seen.add(name);
  }
}

export const ZFilmSizeDefinition = z
  .object({
    type: z.literal('MODALITY_BASED_FILM_SIZE'),
    modality: ZModality.default(DEFAULT_ATTRIBUTE_MODALITY.MODALITY_BASED_FILM_SIZE),
    filmSize: z
      .array(ZFilmSizeChoice)
      .min(1, { error: TEST_ATTRIBUTE_MESSAGES.choicesRequired })
      .max(CHOICES_MAX),
  })
  .superRefine((d, ctx) => checkChoices(d.filmSize, (c) => c.size, ctx, 'filmSize'));
export const ZContrastDefinition = z
  .object({
    type: z.literal('MODALITY_BASED_CONTRAST'),
    modality: ZModality.default(DEFAULT_ATTRIBUTE_MODALITY.MODALITY_BASED_CONTRAST),
    contrastVolume: z
      .array(ZContrastChoice)
      .min(1, { error: TEST_ATTRIBUTE_MESSAGES.choicesRequired })
      .max(CHOICES_MAX),
  })
  .superRefine((d, ctx) => checkChoices(d.contrastVolume, (c) => c.volume, ctx, 'contrastVolume'));

export const ZTestAttributeDefinition = z.discriminatedUnion('type', [
  ZFilmSizeDefinition,
  ZContrastDefinition,
]);
export type TTestAttributeDefinition = z.output<typeof ZTestAttributeDefinition>;
export type TFilmSizeChoice = z.output<typeof ZFilmSizeChoice>;
export type TContrastChoice = z.output<typeof ZContrastChoice>;

const ZDefinitions = z
  .array(ZTestAttributeDefinition)
  .max(ALL_LAB_MODALITIES.length * TEST_ATTRIBUTE_TYPES.length)
  .superRefine((data, ctx) => {
    // One definition of each kind per modality, so a bill line never has two lists to choose from.
    const seen = new Set<string>();
    data.forEach((d, i) => {
      const key = `${d.type}:${d.modality}`;
      if (seen.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'modality'],
          message: TEST_ATTRIBUTE_MESSAGES.duplicateModality(d.modality),
        });
      }
      seen.add(key);
    });
  });

/** LAB_TEST_ATTRIBUTES {data} as GET /api/lab/get-preferences answers it. */
export const ZLabTestAttributesData = z.object({ data: ZDefinitions });
export type TLabTestAttributesData = z.output<typeof ZLabTestAttributesData>;

/**
 * What the supervisor saves (PUT /api/lab/test-attributes): the whole list and the version it was
 * read at (0 when none is stored yet).
 */
export const ZLabTestAttributesSave = z
  .object({ data: ZDefinitions, version: z.number().int().min(0) })
  .meta({ id: 'LabTestAttributesSave' });
export type TLabTestAttributesSave = z.input<typeof ZLabTestAttributesSave>;
export const ZLabTestAttributesStored = z
  .object({ data: z.array(ZTestAttributeDefinition), version: z.number().int() })
  .meta({ id: 'LabTestAttributesStored' });
export type TLabTestAttributesStored = z.output<typeof ZLabTestAttributesStored>;

export interface TAttributeChoices<C> {
  choices: C[];
  /** The flagged default, or null when none is flagged. */
  defaultChoice: C | null;
}

/**
 * What a bill line of this modality may pick: the film sizes and contrast volumes defined for it,
 * each with its default (null lists when the modality has no definition of that kind).
 */
export function attributeChoicesFor(
  definitions: readonly TTestAttributeDefinition[],
  modality: string,
): {
  filmSize: TAttributeChoices<TFilmSizeChoice> | null;
  contrast: TAttributeChoices<TContrastChoice> | null;
} {
  let filmSize: TAttributeChoices<TFilmSizeChoice> | null = null;
  let contrast: TAttributeChoices<TContrastChoice> | null = null;
  for (const d of definitions) {
    if (d.modality !== modality) continue;
    if (d.type === 'MODALITY_BASED_FILM_SIZE' && filmSize === null) {
      filmSize = { choices: [...d.filmSize], defaultChoice: d.filmSize.find((c) => c.default) ?? null };
    }
    if (d.type === 'MODALITY_BASED_CONTRAST' && contrast === null) {
      contrast = {
        choices: [...d.contrastVolume],
        defaultChoice: d.contrastVolume.find((c) => c.default) ?? null,
      };
    }
  }
  return { filmSize, contrast };
}
