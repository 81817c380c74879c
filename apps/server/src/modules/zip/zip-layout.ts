/**
 * Names inside a study zip: `<PatientName>_<StudyDate>/<SeriesNumber>_<SeriesDescription>/<InstanceNumber>.dcm`.
 * Every segment is made safe for every unzip tool and file system: letters and digits of any
 * script kept, DICOM's `^` name separator a space, everything else (slashes, dots that could climb,
 * control characters, reserved Windows characters) an underscore, at most 64 characters.
 */

import { formatPersonName } from '@radflow/core';

const MAX_SEGMENT = 64;

export function sanitizeSegment(value: string, fallback: string): string {
  const cleaned = value
    .normalize('NFC')
    .replace(/\^+/g, ' ')
    .replace(/[^\p{L}\p{N} _-]+/gu, '_')
    .replace(/\s+/g, ' ')
    .replace(/_+/g, '_')
    .trim()
    .replace(/^[_ ]+|[_ ]+$/g, '');
  const cut = [...cleaned].slice(0, MAX_SEGMENT).join('').trim();
  return cut || fallback;
}

/** Gives each name once: a repeat gets `_2`, `_3`, … before its extension. */
export class UniqueNames {
  private readonly seen = new Set<string>();

  take(name: string, extension = ''): string {
    let candidate = `${name}${extension}`;
    for (let n = 2; this.seen.has(candidate.toLowerCase()); n++) candidate = `${name}_${n}${extension}`;
    this.seen.add(candidate.toLowerCase());
    return candidate;
  }
}

export function studyFolderName(study: {
  patientName: string;
  studyDate: string;
  reportStatusId: number;
  isAnonymized: boolean;
}): string {
  if (study.isAnonymized) return `Study_${study.reportStatusId}`;
  const patient = sanitizeSegment(study.patientName, 'Unknown');
  const date = sanitizeSegment(study.studyDate, 'NoDate');
  return `${patient}_${date}`;
}

export function seriesFolderName(series: { seriesNumber: number | null; seriesDescription: string }): string {
  const number = series.seriesNumber ?? 0;
  return `${number}_${sanitizeSegment(series.seriesDescription, 'Series')}`;
}

/** The README of a zip: what is in it and how it is laid out, without patient data when anonymised. */
export function readmeText(info: {
  reportStatusId: number;
  patientName: string;
  studyDate: string;
  studyDescription: string;
  instanceCount: number;
  seriesCount: number;
  isAnonymized: boolean;
  createdAt: Date;
  skipped: string[];
}): string {
  const lines = [
    'Radflow study export',
    '',
    `Study id: ${info.reportStatusId}`,
    ...(info.isAnonymized
      ? ['Anonymised: yes (PS3.15 basic profile; patient identity removed, UIDs remapped)']
      : [
          `Patient: ${formatPersonName(info.patientName)}`,
          `Study date: ${info.studyDate}`,
          `Description: ${info.studyDescription}`,
        ]),
    `Series: ${info.seriesCount}`,
    `Instances: ${info.instanceCount}`,
    `Created: ${info.createdAt.toISOString()}`,
    '',
    'Layout: <study folder>/<SeriesNumber>_<SeriesDescription>/<InstanceNumber>.dcm',
    'Each .dcm file is a DICOM Part 10 file (PS3.10).',
  ];
  if (info.skipped.length > 0) {
    lines.push('', `Left out (${info.skipped.length}): these files could not be anonymised:`);
    lines.push(...info.skipped.map((s) => `  ${s}`));
  }
  return `${lines.join('\r\n')}\r\n`;
}
