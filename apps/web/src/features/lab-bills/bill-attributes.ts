import { attributePricePaise, type TAttributeDefinition } from '@radflow/core';

/**
 * Film size and contrast of a bill line (spec-lab §3 LAB_TEST_ATTRIBUTES definitions, §4 "editable
 * only while the bill is SCHEDULED or when the line is new", §9 "default film size and contrast
 * volume are those flagged default"). The one file of the bill screen that reads the definitions:
 * at merge `choicesFor` becomes the lab-tests module's core attributeChoicesFor.
 */

export interface TAttributeChoice {
  name: string;
  /** Rupees. */
  price: number;
}

export interface TLineAttributeChoices {
  filmSize: { choices: TAttributeChoice[]; defaultName: string | null } | null;
  contrast: { choices: TAttributeChoice[]; defaultName: string | null } | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The definitions of LAB_TEST_ATTRIBUTES.data, the malformed entries left out. */
export function attributeDefinitions(data: readonly unknown[] | undefined): TAttributeDefinition[] {
  return (data ?? []).filter((d): d is TAttributeDefinition => {
    if (!isRecord(d) || typeof d.modality !== 'string') return false;
    if (d.type === 'MODALITY_BASED_FILM_SIZE') return Array.isArray(d.filmSize);
    if (d.type === 'MODALITY_BASED_CONTRAST') return Array.isArray(d.contrastVolume);
    return false;
  });
}

/** What a line of this modality may pick, with the flagged defaults. */
export function choicesFor(
  definitions: readonly TAttributeDefinition[],
  modality: string,
): TLineAttributeChoices {
  const result: TLineAttributeChoices = { filmSize: null, contrast: null };
  for (const d of definitions) {
    if (d.modality !== modality) continue;
    if (d.type === 'MODALITY_BASED_FILM_SIZE' && !result.filmSize) {
      result.filmSize = {
        choices: d.filmSize.map((e) => ({ name: e.size, price: e.price })),
        defaultName: d.filmSize.find((e) => e.default)?.size ?? null,
      };
    }
    if (d.type === 'MODALITY_BASED_CONTRAST' && !result.contrast) {
      result.contrast = {
        choices: d.contrastVolume.map((e) => ({ name: e.volume, price: e.price })),
        defaultName: d.contrastVolume.find((e) => e.default)?.volume ?? null,
      };
    }
  }
  return result;
}

/** A new line's attributes: the flagged defaults of its modality. */
export function defaultAttributes(
  definitions: readonly TAttributeDefinition[],
  modality: string,
): { filmSize: string | null; contrastVolume: string | null } {
  const choices = choicesFor(definitions, modality);
  return {
    filmSize: choices.filmSize?.defaultName ?? null,
    contrastVolume: choices.contrast?.defaultName ?? null,
  };
}

/** What the chosen attributes add to the unit price (core attributePricePaise; unknown names add 0). */
export function attributesPaise(
  definitions: readonly TAttributeDefinition[],
  modality: string,
  attributes: { filmSize: string | null; contrastVolume: string | null },
): number {
  const priced = attributePricePaise(definitions, modality, attributes);
  return priced.ok ? priced.paise : 0;
}

/** spec-lab §4: film size and contrast change only on a new line or while the bill is SCHEDULED. */
export function attributesEditable(line: { isNew: boolean }, billStatus: string | null): boolean {
  return line.isNew || billStatus === 'SCHEDULED';
}
