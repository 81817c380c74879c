import type { TPriceCharge } from './vocabulary.js';

/*
 * Which price applies to a study (issue 26 §1 "effective dates, so a price change never rewrites a
 * past invoice"). Prices are never edited: a change is a new row with a later effective_from. For one
 * charge of one study part, the price in force is, among the rows of that (modality, part, charge):
 * the center's own rows if any is in force on the day, else the group's default list; within the
 * chosen list, the row with the greatest effective_from on or before the day (the sign-off date in
 * the group's display time zone). A part with no price falls back to the modality's base price
 * (study part ''). The server does the same in SQL for a whole month at once
 * (modules/tele-billing/invoice-sql.ts); this function is the rule's statement and its tests.
 */

export interface TPriceCandidate {
  id: number;
  /** The owner of the row on its side: a center (CENTER side) or a doctor (DOCTOR side); null = default list. */
  ownerId: number | null;
  modality: string;
  studyPart: string;
  charge: TPriceCharge;
  amountMinor: number;
  /** YYYY-MM-DD. */
  effectiveFrom: string;
}

export interface TPriceQuery {
  ownerId: number;
  modality: string;
  studyPart: string;
  charge: TPriceCharge;
  /** YYYY-MM-DD: the study's sign-off date in the group's display time zone. */
  day: string;
}

function latest(rows: readonly TPriceCandidate[], day: string): TPriceCandidate | null {
  let best: TPriceCandidate | null = null;
  for (const row of rows) {
    if (row.effectiveFrom > day) continue;
    if (!best || row.effectiveFrom > best.effectiveFrom) best = row;
  }
  return best;
}

function inForceForPart(
  rows: readonly TPriceCandidate[],
  q: TPriceQuery,
  studyPart: string,
): TPriceCandidate | null {
  const same = rows.filter(
    (r) =>
      r.modality.toUpperCase() === q.modality.toUpperCase() &&
      r.studyPart === studyPart &&
      r.charge === q.charge,
  );
  return (
    latest(
      same.filter((r) => r.ownerId === q.ownerId),
      q.day,
    ) ??
    latest(
      same.filter((r) => r.ownerId === null),
      q.day,
    )
  );
}

/** The price in force for one charge of one study part, or null when nothing is priced (the study is then not billed for it). */
export function priceInForce(rows: readonly TPriceCandidate[], q: TPriceQuery): TPriceCandidate | null {
  return inForceForPart(rows, q, q.studyPart) ?? (q.studyPart === '' ? null : inForceForPart(rows, q, ''));
}

/**
 * The parts a study is read (and billed) as: each of its study parts once, in order; a study with none
 * is one read at the modality's base price (part '').
 */
export function billedParts(studyParts: readonly string[]): string[] {
  const parts = [...new Set(studyParts.map((p) => p.trim()).filter((p) => p !== ''))];
  return parts.length === 0 ? [''] : parts;
}
