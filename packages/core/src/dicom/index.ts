/** DICOM grammar both sides check (import-free, so the server's ingest workers can load it alone). */
export * from './dicom-uid.js';
