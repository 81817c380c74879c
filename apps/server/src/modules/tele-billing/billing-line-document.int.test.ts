import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingDocuments, billingLines } from '../../db/schema.js';
import { type TestApp, createTestApp, createTestWorld } from '../../../test/test-app.js';

/*
 * A ledger line's document (migration 0045, DECISIONS.md "Invoicing in SQL"): the per-row foreign key
 * became a per-statement trigger check for speed; the guarantees stay — a line names a document that
 * exists (insert and update), and a document with lines is neither deleted nor renumbered.
 */

let t: TestApp;
let place: Awaited<ReturnType<typeof createTestWorld>>;

beforeAll(async () => {
  t = await createTestApp();
  place = await createTestWorld(t.db);
});

afterAll(async () => {
  await t?.close();
});

const line = (documentId: number) => ({
  documentId,
  groupId: place.group.id,
  side: 'CENTER' as const,
  charge: 'ADJUSTMENT' as const,
  description: 'check',
  unitMinor: 100,
  amountMinor: 100,
});

async function newDocument(sequence: number) {
  const [doc] = await t.db
    .insert(billingDocuments)
    .values({
      groupId: place.group.id,
      kind: 'TELE_INVOICE',
      number: `TI-2026-${String(sequence).padStart(4, '0')}`,
      sequence,
      centerId: place.center.id,
      // One invoice per (center, period): a period of its own per document.
      periodStart: `2026-03-${String(sequence - 9000).padStart(2, '0')}`,
      periodEnd: `2026-03-${String(sequence - 9000).padStart(2, '0')}`,
      subtotalMinor: 100,
      totalMinor: 100,
      dueDate: '2026-04-15',
    })
    .returning({ id: billingDocuments.id });
  return doc!.id;
}

const linesOfGroup = async () =>
  (await t.db.select().from(billingLines).where(eq(billingLines.groupId, place.group.id))).length;

describe('a billing line and its document', () => {
  it('refuses a line (alone or among good ones) whose document does not exist, and a move to one', async () => {
    const doc = await newDocument(9001);
    await expect(t.db.insert(billingLines).values(line(doc + 100_000))).rejects.toThrow();
    await expect(
      t.db.insert(billingLines).values([line(doc), line(doc), line(doc + 100_000)]),
    ).rejects.toThrow();
    expect(await linesOfGroup()).toBe(0);
    await t.db.insert(billingLines).values([line(doc), line(doc)]);
    expect(await linesOfGroup()).toBe(2);
    await expect(
      t.db
        .update(billingLines)
        .set({ documentId: doc + 100_000 })
        .where(eq(billingLines.groupId, place.group.id)),
    ).rejects.toThrow();
    const rows = await t.db.select().from(billingLines).where(eq(billingLines.groupId, place.group.id));
    expect(rows.map((r) => r.documentId)).toEqual([doc, doc]);
  });

  it('keeps a document that has lines: no delete, no new id; one without lines may go', async () => {
    const doc = await newDocument(9002);
    await t.db.insert(billingLines).values(line(doc));
    await expect(t.db.delete(billingDocuments).where(eq(billingDocuments.id, doc))).rejects.toThrow();
    await expect(
      t.db.execute(sql`update billing_documents set id = ${doc + 100_000} where id = ${doc}`),
    ).rejects.toThrow();
    expect(await t.db.select().from(billingDocuments).where(eq(billingDocuments.id, doc))).toHaveLength(1);
    const empty = await newDocument(9003);
    await t.db.delete(billingDocuments).where(eq(billingDocuments.id, empty));
    expect(await t.db.select().from(billingDocuments).where(eq(billingDocuments.id, empty))).toHaveLength(0);
  });
});
