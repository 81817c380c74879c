import { vi } from 'vitest';

/** One request sent through the stubbed XMLHttpRequest (the browser upload, the zip download). */
export interface TXhrRequest {
  method: string;
  /** The URL as opened (relative or absolute). */
  url: string;
  path: string;
  /** The responseType asked for ('' or 'blob'). */
  responseType: string;
  headers: Record<string, string>;
  /** The body (an empty form for a GET). */
  form: FormData;
  /** The `file` parts, in order. */
  files(): File[];
  field(name: string): string | null;
}

/**
 * What the fake server does with a request: answer (after optional upload progress events as
 * [loaded, total] pairs, and download progress events likewise, [loaded, total] with total 0 for an
 * answer without Content-Length), drop the connection, or never answer (until aborted). With
 * responseType 'blob' the answer is `blob`, else the text as a Blob.
 */
export type TXhrReply =
  | {
      status?: number;
      body?: unknown;
      text?: string;
      progress?: [number, number][];
      download?: [number, number][];
      blob?: Blob;
    }
  | 'network-error'
  | 'hang';

type TXhrHandler = (request: TXhrRequest, index: number) => TXhrReply | Promise<TXhrReply>;

/**
 * Stubs XMLHttpRequest (the network boundary of uploads, which fetch cannot do with progress). Every
 * request goes to `handler` with its index; answers are asynchronous like a real network's.
 */
export function fakeXhr(handler: TXhrHandler) {
  const requests: TXhrRequest[] = [];
  let aborted = 0;

  class FakeXMLHttpRequest extends EventTarget {
    readonly upload = new EventTarget();
    status = 0;
    responseText = '';
    responseType: XMLHttpRequestResponseType = '';
    response: unknown = null;
    private method = 'GET';
    private url = '';
    private headers: Record<string, string> = {};
    private done = false;

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }

    abort() {
      if (this.done) return;
      this.done = true;
      aborted += 1;
      this.dispatchEvent(new Event('abort'));
    }

    send(body?: FormData | null) {
      const form = body ?? new FormData();
      const request: TXhrRequest = {
        method: this.method,
        url: this.url,
        path: new URL(this.url, 'http://localhost').pathname,
        responseType: this.responseType,
        headers: { ...this.headers },
        form,
        files: () => form.getAll('file').filter((v): v is File => v instanceof File),
        field: (name) => {
          const value = form.get(name);
          return typeof value === 'string' ? value : null;
        },
      };
      const index = requests.length;
      requests.push(request);
      void Promise.resolve()
        .then(() => handler(request, index))
        .then((reply) => {
          if (this.done || reply === 'hang') return;
          if (reply === 'network-error') {
            this.done = true;
            this.dispatchEvent(new Event('error'));
            return;
          }
          for (const [loaded, total] of reply.progress ?? []) {
            this.upload.dispatchEvent(
              new ProgressEvent('progress', { lengthComputable: true, loaded, total }),
            );
          }
          for (const [loaded, total] of reply.download ?? []) {
            this.dispatchEvent(new ProgressEvent('progress', { lengthComputable: total > 0, loaded, total }));
          }
          this.done = true;
          this.status = reply.status ?? 200;
          const text = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
          if (this.responseType === 'blob') {
            this.response = reply.blob ?? new Blob([text]);
          } else {
            this.responseText = text;
            this.response = text;
          }
          this.dispatchEvent(new Event('load'));
        });
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXMLHttpRequest);
  return {
    requests,
    get aborted() {
      return aborted;
    },
  };
}

/** The upload answer for a batch: every file stored except the named ones, refused with `reason`. */
export function uploadAnswer(
  request: TXhrRequest,
  { refuse = {}, reportStatusId = 1 }: { refuse?: Record<string, string>; reportStatusId?: number } = {},
) {
  const files = request.files().map((file, i) => {
    const reason = refuse[file.name] ?? null;
    return {
      fileName: file.name,
      ok: reason === null,
      sopInstanceUid: reason === null ? `1.2.3.${i}` : null,
      studyInstanceUid: reason === null ? '1.2.3' : null,
      reportStatusId: reason === null ? reportStatusId : null,
      duplicate: false,
      reason,
    };
  });
  const stored = files.filter((f) => f.ok).length;
  return {
    stored,
    failed: files.length - stored,
    files,
    reportStatusIds: stored > 0 ? [reportStatusId] : [],
  };
}

/** A small file with the given name (and byte count). */
export function buildFile(name: string, size = 16): File {
  return new File([new Uint8Array(size)], name, { type: 'application/dicom' });
}
