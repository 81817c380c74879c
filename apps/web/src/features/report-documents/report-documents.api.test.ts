import { REPORT_DOCUMENT_PATHS, REPORT_DOWNLOAD_OPTIONS } from '@radflow/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorBody, fakeApi, type TFakeReply } from '../../test/fake-api';
import { fetchReportDocument } from './report-documents.api';

const row = { id: 7, instanceId: '1.2.3', patientName: 'Asha^Rao', studyName: 'CT Head' };
const pdfOption = REPORT_DOWNLOAD_OPTIONS.find((o) => o.key === 'PDF')!;

describe('fetchReportDocument', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks again, after its Retry-After, a document the busy server shed (503), then gives the file', async () => {
    let calls = 0;
    const api = fakeApi({
      [`POST ${REPORT_DOCUMENT_PATHS.pdf}`]: (): TFakeReply =>
        ++calls < 3
          ? { status: 503, body: errorBody(503, 'The server is busy.'), headers: { 'Retry-After': '0' } }
          : { text: '%PDF-1.7 report', headers: { 'Content-Disposition': 'attachment; filename="r.pdf"' } },
    });
    const document = await fetchReportDocument(pdfOption, row);
    expect(await document.blob.text()).toBe('%PDF-1.7 report');
    expect(document.fileName).toBe('r.pdf');
    expect(api.calls('POST', REPORT_DOCUMENT_PATHS.pdf)).toHaveLength(3);
  });
});
