import type { TBill } from '@radflow/core';

/** Bills as GET /api/lab/bill/get answers them, for the bill screen's and list's tests. */

export const PATIENT = {
  id: 7,
  uhidNumber: 'UH1007',
  name: 'Ravi Kumar',
  mobileNumber: '9876543210',
  gender: 'M',
  designation: 'MR',
  ageString: '34Y',
};

export function savedBill(overrides: Partial<TBill> = {}): TBill {
  return {
    id: 501,
    version: 3,
    status: 'OPEN',
    invoiceNumber: 'INV-0501',
    billDate: '2026-11-27T05:00:00.000Z',
    initialBillDate: '2026-11-27T05:00:00.000Z',
    patientId: 7,
    patient: PATIENT,
    referringDoctorId: null,
    referringDoctor: null,
    labBillTests: [
      {
        id: 901,
        labTestId: 11,
        testCode: 'CT01',
        testName: 'CT Head',
        labModality: 'CT',
        department: 'RADIOLOGY',
        quantity: 1,
        originalPrice: 1500,
        price: 1500,
        refundAmount: 0,
        settlementStatus: 'FULL_PRICE',
        attributes: {},
        appointmentName: null,
        startTimeOfAppointment: null,
        endTimeOfAppointment: null,
        accessionNumber: 'ACC1',
        studyId: null,
        uploadedThroughWorkList: false,
      },
    ],
    labBillCategories: [],
    labTransactions: [],
    totalPrice: 1500,
    discountPercentage: 0,
    discountAmount: 0,
    finalAmount: 1500,
    advancePaid: 0,
    due: true,
    dueAmount: 1500,
    paymentMethod: 'UPI',
    remark: null,
    cancellationRemark: null,
    createdBy: 'desk@demo.local',
    createdAt: '2026-11-27T05:00:00.000Z',
    ...overrides,
  };
}
