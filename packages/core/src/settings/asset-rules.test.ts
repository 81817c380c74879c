import { describe, expect, it } from 'vitest';
import {
  SETTING_ASSET_MAX_BYTES,
  SETTING_ASSET_MESSAGES as M,
  ZLabPrefix,
  ZPdfMarginsForm,
  ZSignatureData,
  canEditLabPrefix,
  canEditReportLayout,
  canEditSignature,
  canReadLabPrefix,
  canUploadSettingAsset,
  detectSettingImageType,
  canUseAssetUpload,
  hasAnySettingEntry,
  settingImageProblem,
} from './asset-rules.js';
import { settingAssetIdOf, settingAssetUrl } from './asset-urls.js';

const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
const JPEG_HEAD = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const GIF_HEAD = new TextEncoder().encode('GIF89a..');

function messageOf(
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error?.issues[0]?.message ?? '');
}

describe('settings images: magic number and size', () => {
  it('knows png and jpeg by their first bytes, nothing else', () => {
    expect(detectSettingImageType(PNG_HEAD)).toBe('image/png');
    expect(detectSettingImageType(JPEG_HEAD)).toBe('image/jpeg');
    expect(detectSettingImageType(GIF_HEAD)).toBeNull();
    expect(detectSettingImageType(PNG_HEAD.subarray(0, 7))).toBeNull();
    expect(detectSettingImageType(new Uint8Array())).toBeNull();
  });
  it('refuses a file over 2 MiB, a gif, and a jpeg where only png is allowed', () => {
    expect(settingImageProblem({ size: SETTING_ASSET_MAX_BYTES, head: PNG_HEAD })).toBeNull();
    expect(settingImageProblem({ size: SETTING_ASSET_MAX_BYTES + 1, head: PNG_HEAD })).toEqual({
      kind: 'TOO_LARGE',
      message: M.imageTooLarge,
    });
    expect(settingImageProblem({ size: 10, head: GIF_HEAD })).toEqual({ kind: 'TYPE', message: M.imageType });
    expect(settingImageProblem({ size: 10, head: JPEG_HEAD })).toBeNull();
    expect(settingImageProblem({ size: 10, head: JPEG_HEAD }, { pngOnly: true })).toEqual({
      kind: 'TYPE',
      message: M.imagePngOnly,
    });
    expect(settingImageProblem({ size: 10, head: PNG_HEAD }, { pngOnly: true })).toBeNull();
  });
  it('makes and reads the public address of an asset', () => {
    const id = '0123456789abcdef0123456789abcdef';
    expect(settingAssetUrl(id)).toBe(`/api/assets/${id}`);
    expect(settingAssetIdOf(settingAssetUrl(id))).toBe(id);
    expect(settingAssetIdOf('/api/assets/../etc')).toBeNull();
    expect(settingAssetIdOf(null)).toBeNull();
  });
});

describe('who may use the image, signature, layout and prefix calls (spec-lab §6)', () => {
  it('uploads only the image types of the caller’s entries', () => {
    expect(canUploadSettingAsset(['ROLE_CENTER'], 'REPORT_HEADER')).toBe(true);
    expect(canUploadSettingAsset(['ROLE_DOCTOR'], 'REPORT_HEADER')).toBe(false);
    expect(canUploadSettingAsset(['ROLE_DOCTOR'], 'CENTER_IMAGE')).toBe(true);
    expect(canUploadSettingAsset(['ROLE_BILLER'], 'BILLING_LOGO')).toBe(true);
    expect(canUploadSettingAsset(['ROLE_BILLER'], 'SIGNATURE')).toBe(false);
    expect(hasAnySettingEntry(['ROLE_TYPIST'])).toBe(false);
    expect(hasAnySettingEntry(['ROLE_ASSIGNOR'])).toBe(false);
  });
  it('report images (key images from the viewer): every report writer, never a read-only role', () => {
    expect(canUploadSettingAsset(['ROLE_TYPIST'], 'REPORT_IMAGE')).toBe(true);
    expect(canUploadSettingAsset(['ROLE_DOCTOR'], 'REPORT_IMAGE')).toBe(true);
    expect(canUploadSettingAsset(['ROLE_VERIFIER'], 'REPORT_IMAGE')).toBe(true);
    expect(canUploadSettingAsset(['ROLE_CENTER'], 'REPORT_IMAGE')).toBe(false);
    expect(canUploadSettingAsset(['ROLE_REFERRING_DOCTOR'], 'REPORT_IMAGE')).toBe(false);
    expect(canUseAssetUpload(['ROLE_TYPIST'])).toBe(true);
    expect(canUseAssetUpload(['ROLE_ASSIGNOR'])).toBe(false);
  });
  it('signature: doctor and center; layout: center, center customer, group; prefix: labs supervisor', () => {
    expect(canEditSignature(['ROLE_DOCTOR'])).toBe(true);
    expect(canEditSignature(['ROLE_CENTER'])).toBe(true);
    expect(canEditSignature(['ROLE_TYPIST'])).toBe(false);
    expect(canEditReportLayout(['ROLE_CENTER_CUSTOMER'])).toBe(true);
    expect(canEditReportLayout(['ROLE_GROUP'])).toBe(true);
    expect(canEditReportLayout(['ROLE_DOCTOR'])).toBe(false);
    expect(canEditLabPrefix(['ROLE_LABS_SUPERVISOR'])).toBe(true);
    expect(canEditLabPrefix(['ROLE_LABS_RECEPTIONIST'])).toBe(false);
    expect(canEditLabPrefix(['ROLE_CENTER'])).toBe(false);
    expect(canReadLabPrefix(['ROLE_LABS_RECEPTIONIST'])).toBe(true);
    expect(canReadLabPrefix(['ROLE_CENTER'])).toBe(true);
    expect(canReadLabPrefix(['ROLE_DOCTOR'])).toBe(false);
  });
});

describe('signature footer text (spec-lab §5: required)', () => {
  it('keeps the trimmed text; refuses blank, missing and over-long text', () => {
    expect(ZSignatureData.parse({ name: '  Dr A. Rao, MD  ' })).toEqual({ name: 'Dr A. Rao, MD' });
    expect(messageOf(ZSignatureData, { name: '   ' })).toBe('Signature footer text is required.');
    expect(messageOf(ZSignatureData, {})).toBe(M.signatureNameRequired);
    expect(messageOf(ZSignatureData, { name: 'x'.repeat(201) })).toBe(M.signatureNameTooLong);
  });
});

describe('PDF margins (spec-lab §5: step 0.01, top and bottom required)', () => {
  const good = {
    pdf_margin_top: '4',
    pdf_margin_bottom: '3.25',
    pdf_margin_left: 2.5,
    pdf_margin_right: '0',
  };
  it('reads numbers from text and numbers; left and right may be left out', () => {
    expect(ZPdfMarginsForm.parse(good)).toEqual({
      pdf_margin_top: 4,
      pdf_margin_bottom: 3.25,
      pdf_margin_left: 2.5,
      pdf_margin_right: 0,
    });
    expect(ZPdfMarginsForm.parse({ pdf_margin_top: '0.1', pdf_margin_bottom: '10' })).toEqual({
      pdf_margin_top: 0.1,
      pdf_margin_bottom: 10,
    });
  });
  it.each([
    [{ ...good, pdf_margin_top: '' }, M.marginTopRequired],
    [{ pdf_margin_top: '4' }, M.marginBottomRequired],
    [{ ...good, pdf_margin_bottom: null }, M.marginBottomRequired],
    [{ ...good, pdf_margin_left: 'abc' }, M.marginInvalid],
    [{ ...good, pdf_margin_top: '1e2' }, M.marginInvalid],
    [{ ...good, pdf_margin_right: '-0.5' }, M.marginNegative],
    [{ ...good, pdf_margin_top: '10.01' }, M.marginTooLarge],
    [{ ...good, pdf_margin_bottom: '1.005' }, M.marginStep],
  ])('refuses %j with its message', (value, message) => {
    expect(messageOf(ZPdfMarginsForm, value)).toBe(message);
  });
});

describe('lab prefix (spec-lab §5: all four required)', () => {
  const good = { prefix: 'INV-', sequence: 1001, uhidPrefix: 'UH/2026/', uhidSequence: '7' };
  it('keeps a good prefix; sequences typed as text become numbers', () => {
    expect(ZLabPrefix.parse(good)).toEqual({
      prefix: 'INV-',
      sequence: 1001,
      uhidPrefix: 'UH/2026/',
      uhidSequence: 7,
    });
    expect(ZLabPrefix.parse({ ...good, sequence: 1_000_000_000_000 }).sequence).toBe(1_000_000_000_000);
  });
  it.each([
    [{ ...good, prefix: '' }, M.prefixRequired],
    [{ ...good, sequence: undefined }, M.sequenceRequired],
    [{ ...good, uhidPrefix: '  ' }, M.uhidPrefixRequired],
    [{ ...good, uhidSequence: null }, M.uhidSequenceRequired],
    [{}, M.prefixRequired],
    [{ ...good, prefix: 'INV 1' }, M.prefixInvalid],
    [{ ...good, prefix: 'A'.repeat(21) }, M.prefixInvalid],
    [{ ...good, sequence: 0 }, M.sequenceInvalid],
    [{ ...good, sequence: 1.5 }, M.sequenceInvalid],
    [{ ...good, sequence: 'ten' }, M.sequenceInvalid],
    [{ ...good, uhidSequence: 1_000_000_000_001 }, M.sequenceInvalid],
  ])('refuses %j with its message', (value, message) => {
    expect(messageOf(ZLabPrefix, value)).toBe(message);
  });
});
