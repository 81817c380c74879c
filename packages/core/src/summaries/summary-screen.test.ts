import { describe, expect, it } from 'vitest';
import { SUMMARY_MESSAGES } from './range.js';
import {
  type TSummaryTextRow,
  canDownloadSummaryExcel,
  hasSummaryScreen,
  summaryCellText,
  summaryDateTypeOf,
  summaryHistoryActions,
  summaryPageRefusal,
} from './summary-screen.js';

const off = { hideSummaryPage: false, teleMedSpecificCustomization: false };

describe('the summary screen rules', () => {
  it('opens for centers, doctors and admins; the switches close it', () => {
    expect(hasSummaryScreen(['ROLE_CENTER'])).toBe(true);
    expect(hasSummaryScreen(['ROLE_TYPIST'])).toBe(false);
    expect(summaryPageRefusal(['ROLE_DOCTOR'], off)).toBeNull();
    expect(summaryPageRefusal(['ROLE_DOCTOR'], { ...off, hideSummaryPage: true })).toBe(
      SUMMARY_MESSAGES.notAllowed,
    );
    const teleMed = { ...off, teleMedSpecificCustomization: true };
    expect(summaryPageRefusal(['ROLE_CENTER'], teleMed)).toBe(SUMMARY_MESSAGES.notAllowed);
    expect(summaryPageRefusal(['ROLE_ADMIN', 'ROLE_ASSIGNOR'], teleMed)).toBe(SUMMARY_MESSAGES.notAllowed);
    expect(summaryPageRefusal(['ROLE_DOCTOR'], teleMed)).toBeNull();
  });

  it('refuses the download to an assignor only under disableExcelDownloadForAssignor', () => {
    const on = { disableExcelDownloadForAssignor: true };
    expect(canDownloadSummaryExcel(['ROLE_ADMIN', 'ROLE_ASSIGNOR'], on)).toBe(false);
    expect(canDownloadSummaryExcel(['ROLE_ADMIN'], on)).toBe(true);
    expect(canDownloadSummaryExcel(['ROLE_ASSIGNOR'], { disableExcelDownloadForAssignor: false })).toBe(true);
  });

  it('offers history edit to billers and tele-radiology, the timeline to assignors and centers', () => {
    expect(summaryHistoryActions(['ROLE_ADMIN', 'ROLE_BILLER'], { status: 'CREATED' })).toEqual({
      editHistory: true,
      openReport: true,
      timeline: false,
    });
    expect(summaryHistoryActions(['ROLE_CENTER'], { status: 'DELETED' })).toEqual({
      editHistory: false,
      openReport: false,
      timeline: true,
    });
    expect(summaryHistoryActions(['ROLE_TELE_RADIOLOGY', 'ROLE_ASSIGNOR'], { status: 'SIGNED_OFF' })).toEqual(
      {
        editHistory: true,
        openReport: true,
        timeline: true,
      },
    );
  });

  it('reads the date type, absent as upload time', () => {
    expect(summaryDateTypeOf(undefined)).toBe('UPLOAD_TIME');
    expect(summaryDateTypeOf('SIGNED_OFF_TIME')).toBe('SIGNED_OFF_TIME');
    expect(summaryDateTypeOf('signed')).toBeNull();
  });

  it('writes each column as the screen shows it, times in the display zone', () => {
    const row: TSummaryTextRow = {
      id: 7,
      patientName: 'DOE^JANE',
      patientId: 'P1',
      invoiceNumber: '',
      accessionNumber: 'ACC-1',
      studyName: 'CT^HEAD',
      history: 'fall',
      status: 'DELETED',
      shareLink: 'tok',
      backedUpAt: null,
      radiologyCenter: 'North',
      assignedTo: 'dr@x.test',
      assignedToName: null,
      referringPhysicianName: 'SMITH^JOHN',
      studyDateTime: '2026-01-05 10:15:00',
      lastUploadCompletedAt: '2026-01-05T18:30:00.000Z',
      signedOffAt: null,
      hasReports: false,
    };
    const text = (c: Parameters<typeof summaryCellText>[0]) => summaryCellText(c, row, 'Asia/Kolkata');
    expect(text('id')).toBe('7');
    expect(text('patient')).toBe('JANE DOE');
    expect(text('invoiceNumber')).toBe('ACC-1');
    expect(text('reportStatus')).toBe('BACKED_UP');
    expect(text('assigned')).toBe('dr@x.test');
    expect(text('share')).toBe('/share?link=tok');
    expect(text('uploadedDate')).toBe('2026-01-06 00:00:00');
    expect(text('signedOffDate')).toBe('');
    expect(text('report')).toBe('');
  });
});
