import { describe, expect, it } from 'vitest';
import { formFromBill } from './bill-form';
import { savedBill } from './test-bills';

describe('a saved bill reopened (bill-form formFromBill)', () => {
  it('reopens a discount typed as an amount by its amount, one typed as a percent by its percent', () => {
    // ₹100 off ₹1500 is 6.67 %, which gives back ₹100.05: the amount is what was typed.
    const byAmount = formFromBill(
      savedBill({ totalPrice: 1500, discountPercentage: 6.67, discountAmount: 100, finalAmount: 1400 }),
      'Asia/Kolkata',
    );
    expect(byAmount).toMatchObject({ discountBy: 'AMOUNT', discountText: '100' });
    const byPercent = formFromBill(
      savedBill({ totalPrice: 1500, discountPercentage: 12.5, discountAmount: 187.5, finalAmount: 1313 }),
      'Asia/Kolkata',
    );
    expect(byPercent).toMatchObject({ discountBy: 'PERCENTAGE', discountText: '12.5' });
    expect(formFromBill(savedBill(), 'Asia/Kolkata')).toMatchObject({ discountText: '' });
  });

  it('keeps a saved line’s billed unit price apart from its film size and contrast', () => {
    const bill = savedBill();
    bill.labBillTests[0] = {
      ...bill.labBillTests[0]!,
      originalPrice: 2300,
      attributes: { contrastVolume: '50ml', attributePrice: 800 },
    };
    const [line] = formFromBill(bill, 'Asia/Kolkata').lines;
    expect(line).toMatchObject({
      id: 901,
      basePaise: 150_000,
      contrastVolume: '50ml',
      filmSize: null,
      saved: { unitPaise: 230_000, contrastVolume: '50ml', filmSize: null },
    });
  });
});
