/** DICOM grammar both sides check (dicom-uid.ts is import-free, so the ingest workers load it alone). */
export * from './dicom-uid.js';
export * from './uid-schema.js';
