import type { FastifyRequest } from 'fastify';
import {
  AppError,
  SETTING_ASSET_MAX_BYTES,
  SETTING_ASSET_MESSAGES,
  type TSettingImageContentType,
  detectSettingImageType,
  settingImageProblem,
} from '@radflow/core';

/** The limits @fastify/multipart applies to every settings form (registered by the routes). */
export const SETTING_FORM_LIMITS = {
  fileSize: SETTING_ASSET_MAX_BYTES,
  files: 2,
  fields: 10,
  parts: 12,
  fieldSize: 64 * 1024,
} as const;

/** A settings form as received: its text fields and its files, each at most 2 MiB in memory. */
export interface TSettingForm {
  fields: Record<string, string>;
  files: Record<string, Buffer>;
}

/**
 * Reads a multipart settings form. Files go to a buffer capped by the multipart limit (a settings
 * image is small; a temp file would cost more than it saves); a file over 2 MiB answers 413 as soon
 * as the cap is hit. Only the named file parts are accepted; a file part with no name and no bytes
 * (an empty file input of an HTML form) counts as absent.
 */
export async function readSettingForm(
  request: FastifyRequest,
  fileFields: readonly string[],
): Promise<TSettingForm> {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as multipart/form-data', 'content-type');
  }
  const form: TSettingForm = { fields: {}, files: {} };
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (part.valueTruncated)
        throw new AppError('BAD_REQUEST', `${part.fieldname} is too long`, part.fieldname);
      if (typeof part.value === 'string') form.fields[part.fieldname] = part.value;
      continue;
    }
    if (!fileFields.includes(part.fieldname) || part.fieldname in form.files) {
      part.file.resume();
      throw new AppError('BAD_REQUEST', `Unexpected file part ${part.fieldname}`, part.fieldname);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of part.file) chunks.push(chunk as Buffer);
    if (part.file.truncated) {
      throw new AppError('PAYLOAD_TOO_LARGE', SETTING_ASSET_MESSAGES.imageTooLarge, part.fieldname);
    }
    const bytes = Buffer.concat(chunks);
    if (bytes.length === 0 && !part.filename) continue;
    form.files[part.fieldname] = bytes;
  }
  return form;
}

/**
 * The image's content type by its bytes (png, or jpeg unless `pngOnly`); 415 otherwise, whatever
 * content type the client claimed.
 */
export function checkSettingImage(
  bytes: Buffer,
  field: string,
  opts: { pngOnly?: boolean } = {},
): TSettingImageContentType {
  const problem = settingImageProblem({ size: bytes.length, head: bytes }, opts);
  if (problem) {
    throw new AppError(
      problem.kind === 'TOO_LARGE' ? 'PAYLOAD_TOO_LARGE' : 'UNSUPPORTED_MEDIA_TYPE',
      problem.message,
      field,
    );
  }
  const type = detectSettingImageType(bytes);
  if (!type) throw new AppError('UNSUPPORTED_MEDIA_TYPE', SETTING_ASSET_MESSAGES.imageType, field);
  return type;
}
