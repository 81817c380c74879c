import { describe, expect, it } from 'vitest';
import { ReleaseError } from './errors.js';
import { MESSAGE_UPDATE_NOT_SIGNED, signManifest, verifyReleaseManifest } from './signature.js';
import { testKey, testRelease } from './test-release.helpers.js';

const release = testKey();
const other = testKey();

function refusal(run: () => unknown): ReleaseError {
  try {
    run();
  } catch (error) {
    if (error instanceof ReleaseError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('release manifest signature (Ed25519)', () => {
  const { manifestText, signature, manifest } = testRelease('2.0.0', 'ok', release.privateKeyPem);

  it('a manifest signed by a trusted key verifies and is returned parsed', () => {
    expect(verifyReleaseManifest(manifestText, signature, [release.publicKeyPem])).toEqual(manifest);
  });

  it('verifies with any one of several trusted keys (key rotation)', () => {
    expect(
      verifyReleaseManifest(manifestText, signature, [other.publicKeyPem, release.publicKeyPem]).version,
    ).toBe('2.0.0');
  });

  it('a signature by another key is refused', () => {
    const foreign = signManifest(manifestText, other.privateKeyPem);
    const error = refusal(() => verifyReleaseManifest(manifestText, foreign, [release.publicKeyPem]));
    expect(error.code).toBe('BAD_SIGNATURE');
    expect(error.message).toBe(MESSAGE_UPDATE_NOT_SIGNED);
  });

  it('the right signature checked against the wrong key is refused', () => {
    expect(refusal(() => verifyReleaseManifest(manifestText, signature, [other.publicKeyPem])).code).toBe(
      'BAD_SIGNATURE',
    );
  });

  it('a missing, empty or garbled signature is refused', () => {
    for (const bad of [undefined, null, '', 'not base64 at all', Buffer.alloc(64).toString('base64')])
      expect(refusal(() => verifyReleaseManifest(manifestText, bad, [release.publicKeyPem])).code).toBe(
        'BAD_SIGNATURE',
      );
  });

  it('a tampered manifest (another checksum, one byte changed) is refused', () => {
    const tampered = manifestText.replace(manifest.sha256, 'f'.repeat(64));
    expect(refusal(() => verifyReleaseManifest(tampered, signature, [release.publicKeyPem])).code).toBe(
      'BAD_SIGNATURE',
    );
    const spaced = manifestText.replace('{', '{ ');
    expect(refusal(() => verifyReleaseManifest(spaced, signature, [release.publicKeyPem])).code).toBe(
      'BAD_SIGNATURE',
    );
  });

  it('a build with no trusted key refuses every update', () => {
    expect(refusal(() => verifyReleaseManifest(manifestText, signature, [])).code).toBe('NO_TRUSTED_KEY');
  });

  it('a non-Ed25519 or malformed key in the list does not verify anything', () => {
    expect(refusal(() => verifyReleaseManifest(manifestText, signature, ['-----BEGIN nonsense'])).code).toBe(
      'BAD_SIGNATURE',
    );
  });

  it('signing refuses a key that is not Ed25519', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(() => signManifest(manifestText, rsa)).toThrow(/Ed25519/);
  });
});
