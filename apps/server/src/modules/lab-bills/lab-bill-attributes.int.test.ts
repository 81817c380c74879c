import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TBill } from '@radflow/core';
import { eq } from 'drizzle-orm';
import { labBillTests } from '../../db/schema.js';
import { type TestApp, createTestApp } from '../../../test/test-app.js';
import { labPlace, put } from '../../../test/lab-bill-data.js';

/**
 * The two parts meet here: the supervisor saves the film sizes and contrasts with lab-tests'
 * PUT /api/lab/test-attributes, and a bill line naming one is priced from those stored definitions
 * (spec-lab §3 LAB_TEST_ATTRIBUTES, §4 "a contrast price change adjusts the line's original price").
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const definitions = [
  {
    type: 'MODALITY_BASED_FILM_SIZE',
    modality: 'DX',
    filmSize: [
      { size: '10x12', price: 100, default: true },
      { size: '14x17', price: 150.5, default: false },
    ],
  },
  {
    type: 'MODALITY_BASED_CONTRAST',
    modality: 'CT',
    contrastVolume: [
      { volume: '50 ml', price: 800, default: true },
      { volume: '100 ml', price: 1200, default: false },
    ],
  },
];

describe('a bill line priced from the stored test attributes', () => {
  it('a saved non-default film size and a contrast are priced into the stored lines', async () => {
    const p = await labPlace(t);
    const saved = await put(p.supervisor, '/api/lab/test-attributes', { data: definitions, version: 0 });
    expect(saved.statusCode, saved.body).toBe(200);

    const res = await p.receptionist.post('/api/lab/bill', {
      patientId: p.patient.id,
      labBillTests: [
        { labTestId: p.dx.id, quantity: 1, attributes: { filmSize: '14x17', contrastVolume: null } },
        { labTestId: p.ct.id, quantity: 1, attributes: { filmSize: null, contrastVolume: '100 ml' } },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const bill = res.json<TBill>();
    // DX 499.50 + film 150.50 = 650; CT 1500 + contrast 1200 = 2700.
    expect(bill.labBillTests.map((l) => [l.testCode, l.originalPrice, l.price])).toEqual([
      ['DX01', 650, 650],
      ['CT01', 2700, 2700],
    ]);
    expect(bill).toMatchObject({ totalPrice: 3350, finalAmount: 3350, dueAmount: 3350 });

    const stored = await t.db
      .select({ testCode: labBillTests.testCode, attributes: labBillTests.attributes })
      .from(labBillTests)
      .where(eq(labBillTests.billId, bill.id));
    expect(
      stored.map((l) => l.attributes).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    ).toEqual([
      { contrastVolume: '100 ml', attributePrice: 1200 },
      { filmSize: '14x17', attributePrice: 150.5 },
    ]);
    const again = (await p.supervisor.get(`/api/lab/bill/get/${bill.id}`)).json<TBill>();
    expect(again.labBillTests.map((l) => l.price)).toEqual([650, 2700]);
  });

  it('a name the lab never defined is still refused', async () => {
    const p = await labPlace(t);
    await put(p.supervisor, '/api/lab/test-attributes', { data: definitions, version: 0 });
    const res = await p.receptionist.post('/api/lab/bill', {
      patientId: p.patient.id,
      labBillTests: [{ labTestId: p.dx.id, quantity: 1, attributes: { filmSize: '8x10' } }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errorDescription: 'Film size 8x10 is not defined for DX' });
  });
});
