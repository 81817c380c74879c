import type { TStudyListRow } from '@radflow/core';
import { deviceHeaders, failedRequest, parseBody } from '../../api/client';

/**
 * Print a signed-off report (spec-core §7 POST /pdf/download with uid and reportStatusId; the PDF
 * itself is the Reporting issue's). The PDF is printed from a hidden frame so the list stays open;
 * a refusal is shown by the API client like any other.
 */
export async function printReport(row: Pick<TStudyListRow, 'id' | 'instanceId'>): Promise<void> {
  let response: Response;
  try {
    response = await fetch('/api/pdf/download', {
      method: 'POST',
      headers: { ...deviceHeaders(), Accept: 'application/pdf', 'Content-Type': 'application/json' },
      body: JSON.stringify({ uid: row.instanceId, reportStatusId: row.id }),
      credentials: 'same-origin',
    });
  } catch {
    throw failedRequest(0, null, false);
  }
  if (!response.ok) throw failedRequest(response.status, parseBody(await response.text()), false);
  const url = URL.createObjectURL(await response.blob());
  const frame = document.createElement('iframe');
  frame.style.display = 'none';
  frame.src = url;
  frame.onload = () => {
    frame.contentWindow?.print();
    // Long enough for the print dialog to have read the document.
    setTimeout(() => {
      frame.remove();
      URL.revokeObjectURL(url);
    }, 60_000);
  };
  document.body.appendChild(frame);
}
