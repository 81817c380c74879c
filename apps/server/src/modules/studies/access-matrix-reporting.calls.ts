import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TReportStatus } from '@radflow/core';
import { formBody } from '../../../test/archive/helpers.js';
import type { TEndpoint, TReportingEndpoint } from './access-matrix.table.js';
import type { TestClient } from '../../../test/test-app.js';

/*
 * The reporting cells of the access matrix (rows: access-matrix-reporting.table.ts): the request
 * each endpoint sends, and what a cell's fresh study needs beforehand — a saved or signed report
 * (documents), an audio note recorded by the doctor — made by the doctor through the API, so the
 * study is in the state the real lifecycle leaves it in.
 */

export interface TReportingTarget {
  id: number;
  /** The study instance UID (the documents' `uid`). */
  uid: string;
  /** The doctor's audio note on the study, for the calls about one note. */
  audioId: number | null;
}

interface TDeps {
  doctor(): { email: string; browser: TestClient };
}

/** A WAV file as a recorder would upload it: the RIFF/WAVE header and a little silence. */
function silentWav(): Buffer {
  const samples = Buffer.alloc(800);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

export function uploadAudio(browser: TestClient, id: number) {
  const body = formBody({ durationMs: '50' }, [{ name: 'note.wav', bytes: silentWav() }]);
  return browser.request({
    method: 'POST',
    url: `/api/report-audio/save-audio/${id}`,
    payload: body.payload,
    headers: { 'content-type': body.contentType },
  });
}

const DOCUMENTS: readonly TEndpoint[] = ['pdfDownload', 'pdfDownloadImages', 'pdfWord'];

/**
 * The status the matrix study is created in: a documents row names the status the doctor's report
 * leaves it in (REPORTED, SIGNED_OFF), reached through the API from CREATED.
 */
export function createdStatusFor(endpoint: TEndpoint, status: TReportStatus): TReportStatus {
  return DOCUMENTS.includes(endpoint) ? 'CREATED' : status;
}

export function reportingMatrixCalls(deps: TDeps) {
  /** What the row's cell needs on its fresh study beyond its status. */
  async function prepare(
    endpoint: TEndpoint,
    status: TReportStatus,
    study: { id: number; uid: string },
  ): Promise<TReportingTarget> {
    const doctor = deps.doctor().browser;
    if (DOCUMENTS.includes(endpoint)) {
      expect((await doctor.post(`/api/report/lock/${study.id}`, {})).statusCode).toBe(200);
      const save = await doctor.post(`/api/report/save/${study.id}`, {
        name: 'CT Chest',
        content: '<p>Clear lungs.</p>',
        signOff: status === 'SIGNED_OFF',
        // A fresh study: nothing saved yet.
        baseVersion: null,
      });
      expect(save.statusCode, `setup save: ${save.body}`).toBe(200);
      expect(save.json<{ status: string }>().status).toBe(status);
    }
    let audioId: number | null = null;
    if (endpoint === 'audioDelete' || endpoint === 'audioFile') {
      const res = await uploadAudio(doctor, study.id);
      expect(res.statusCode, `setup audio: ${res.body}`).toBe(200);
      audioId = res.json<{ audioId: number }>().audioId;
    }
    return { ...study, audioId };
  }

  const document = (b: TestClient, path: string, target: TReportingTarget) =>
    b.post(path, { uid: target.uid, reportStatusId: target.id });
  const draft = { name: 'CT Chest', content: '<p>Draft words.</p>', baseVersion: null };
  const report = (signOff: boolean) => ({
    name: 'CT Chest',
    content: '<p>Clear lungs.</p>',
    signOff,
    // Each cell's study is fresh: no report saved yet (issue 21 §7 the version a save starts from).
    baseVersion: null,
    // Used by a typist only (the doctor they type for); a doctor writes for themselves.
    doctorEmail: deps.doctor().email,
  });
  let templates = 0;

  const calls: Record<
    TReportingEndpoint,
    (b: TestClient, target: TReportingTarget) => Promise<LightMyRequestResponse>
  > = {
    reportLock: (b, { id }) => b.post(`/api/report/lock/${id}`, { doctorEmail: deps.doctor().email }),
    reportSave: (b, { id }) => b.post(`/api/report/save/${id}`, report(false)),
    reportSignOff: (b, { id }) => b.post(`/api/report/save/${id}`, report(true)),
    reportRead: (b, { id }) => b.get(`/api/report/${id}`),
    draftGet: (b, { id }) => b.get(`/api/report/draft/${id}`),
    draftPut: (b, { id }) => b.request({ method: 'PUT', url: `/api/report/draft/${id}`, payload: draft }),
    draftDelete: (b, { id }) => b.request({ method: 'DELETE', url: `/api/report/draft/${id}` }),
    templateList: (b) => b.get('/api/report-template/?modality=CT'),
    templateCreate: (b) => {
      templates += 1;
      return b.post('/api/report-template/', {
        name: `Matrix template ${templates}`,
        content: '<p>Findings:</p>',
        modalities: ['CT'],
      });
    },
    audioList: (b, { id }) => b.get(`/api/report-audio/fetch-audio/${id}`),
    audioSave: (b, { id }) => uploadAudio(b, id),
    audioDelete: (b, { id, audioId }) =>
      b.request({ method: 'DELETE', url: `/api/report-audio/delete-audio/${id}/${audioId ?? 0}` }),
    audioFile: (b, { id, audioId }) => b.get(`/api/report-audio/file/${id}/${audioId ?? 0}`),
    pdfDownload: (b, target) => document(b, '/api/pdf/download', target),
    pdfDownloadImages: (b, target) => document(b, '/api/pdf/download-images', target),
    pdfWord: (b, target) => document(b, '/api/pdf/word', target),
    viewerQr: (b, { id }) => b.post('/api/pdf/generate-viewer-qr', { reportStatusId: id }),
    reportMessages: (b, { id }) => b.get(`/api/report-status/messages/${id}`),
  };
  return { prepare, calls };
}
