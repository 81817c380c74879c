import { deviceHeaders, parseBody } from '../../api/client';

export interface TXhrAnswer {
  /** 0 when no answer arrived (network down, connection reset). */
  status: number;
  body: unknown;
}

export function abortError(): DOMException {
  return new DOMException('The upload was cancelled', 'AbortError');
}

export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/**
 * POSTs a multipart form with XMLHttpRequest, because fetch reports no upload progress. Same origin,
 * so the session cookie goes along; the device headers are the API client's. Resolves with any
 * answer (the caller decides what a status means) and rejects only when aborted.
 */
export function postForm(
  path: string,
  form: FormData,
  { signal, onProgress }: { signal?: AbortSignal; onProgress?: (loaded: number, total: number) => void },
): Promise<TXhrAnswer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', path);
    for (const [name, value] of Object.entries(deviceHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded, event.total);
    });
    xhr.addEventListener('load', () => {
      done();
      resolve({ status: xhr.status, body: parseBody(xhr.responseText) });
    });
    xhr.addEventListener('error', () => {
      done();
      resolve({ status: 0, body: null });
    });
    xhr.addEventListener('timeout', () => {
      done();
      resolve({ status: 0, body: null });
    });
    xhr.addEventListener('abort', () => {
      done();
      reject(abortError());
    });
    signal?.addEventListener('abort', onAbort);
    xhr.send(form);
  });
}
