/**
 * @radflow/dicom/test-support — real DICOM peers and DCMTK runners for tests and benchmarks: the
 * storescu profile and runners (`dcmtk.ts`), DCMTK storescp and Orthanc on 127.0.0.1 (`peers.ts`).
 * They spawn processes, so no production entry exports them (`entries.test.ts` keeps it so).
 */
export * from './dcmtk.js';
export * from './peers.js';
