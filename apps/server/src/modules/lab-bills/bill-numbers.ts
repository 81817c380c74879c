import { and, eq, sql } from 'drizzle-orm';
import { LAB_PREFIX_DEFAULTS } from '@radflow/core';
import type { DbOrTx } from '../../db/client.js';
import { labPrefixes } from '../../db/schema.js';
import type { TLabOwner } from '../lab-settings/lab-owner.js';

/**
 * The next invoice number of the lab: its prefix and sequence (lab_prefixes, lab-prefix.ts), the row
 * made with the defaults when the lab never set one. The UPDATE … RETURNING takes the row's lock until
 * the bill's transaction ends, so bills created at once get consecutive numbers, and a bill whose
 * transaction fails gives its number back (no gap).
 */
export async function nextInvoiceNumber(tx: DbOrTx, owner: TLabOwner, actor: string): Promise<string> {
  const take = () =>
    tx
      .update(labPrefixes)
      .set({ sequence: sql`${labPrefixes.sequence} + 1` })
      .where(and(eq(labPrefixes.scope, owner.scope), eq(labPrefixes.ownerId, owner.ownerId)))
      .returning({ prefix: labPrefixes.prefix, taken: sql<number>`(${labPrefixes.sequence} - 1)::bigint` });
  let [row] = await take();
  if (!row) {
    // The lab's first bill: its numbering starts at the defaults (a concurrent first bill makes the
    // same row; the loser of the insert waits for it and then numbers after it).
    await tx
      .insert(labPrefixes)
      .values({ scope: owner.scope, ownerId: owner.ownerId, ...LAB_PREFIX_DEFAULTS, updatedBy: actor })
      .onConflictDoNothing({ target: [labPrefixes.scope, labPrefixes.ownerId] });
    [row] = await take();
  }
  if (!row) throw new Error('lab_prefixes row vanished inside its transaction');
  return `${row.prefix}${Number(row.taken)}`;
}

/** DICOM SH holds at most 16 characters: the longest accession number the worklist may hand out. */
export const ACCESSION_NUMBER_MAX = 16;

/**
 * The one home of accession numbers: "RF" and the bill line's id (unique across every lab, since
 * the id is), zero-padded to 8 digits so they sort and read alike; within DICOM SH up to 10^14 lines.
 */
export function accessionNumberOf(lineId: number): string {
  const text = `RF${String(lineId).padStart(8, '0')}`;
  if (text.length > ACCESSION_NUMBER_MAX)
    throw new Error(`accession number ${text} is longer than SH allows`);
  return text;
}

/** Ids for `count` new bill lines, taken from the table's sequence so each line is born with its number. */
export async function newLineIds(tx: DbOrTx, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await tx
    .select({ id: sql<number>`nextval(pg_get_serial_sequence('lab_bill_tests', 'id'))::int` })
    .from(sql`generate_series(1, ${count})`);
  return rows.map((r) => Number(r.id));
}
