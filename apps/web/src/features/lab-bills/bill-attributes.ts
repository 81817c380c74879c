import { attributeChoicesFor, attributePricePaise, type TTestAttributeDefinition } from '@radflow/core';

/**
 * Film size and contrast of a bill line (spec-lab §3 LAB_TEST_ATTRIBUTES definitions, §4 "editable
 * only while the bill is SCHEDULED or when the line is new", §9 "default film size and contrast
 * volume are those flagged default"). The choices are lab-tests' core attributeChoicesFor over
 * GET /api/lab/get-preferences LAB_TEST_ATTRIBUTES.data (already parsed by core ZLabPreferences).
 */

/** A new line's attributes: the flagged defaults of its modality. */
export function defaultAttributes(
  definitions: readonly TTestAttributeDefinition[],
  modality: string,
): { filmSize: string | null; contrastVolume: string | null } {
  const choices = attributeChoicesFor(definitions, modality);
  return {
    filmSize: choices.filmSize?.defaultChoice?.size ?? null,
    contrastVolume: choices.contrast?.defaultChoice?.volume ?? null,
  };
}

/** What the chosen attributes add to the unit price (core attributePricePaise; unknown names add 0). */
export function attributesPaise(
  definitions: readonly TTestAttributeDefinition[],
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
