import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { ZRouterReleaseManifest, type TRouterReleaseManifest } from '@radflow/core';
import { ReleaseError } from './errors.js';

/**
 * Ed25519 over the manifest file's exact bytes (node:crypto, no dependency). The manifest names the
 * artefact's SHA-256 and size, so one signature vouches for both; the artefact itself is checked
 * against the signed manifest, never against an unsigned field of the offer.
 */
export function signManifest(manifestText: string, privateKeyPem: string | KeyObject): string {
  const key = typeof privateKeyPem === 'string' ? createPrivateKey(privateKeyPem) : privateKeyPem;
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('The release key must be an Ed25519 private key');
  return sign(null, Buffer.from(manifestText, 'utf8'), key).toString('base64');
}

/** The public half of a release key, as SPKI PEM (what a build embeds). */
export function publicKeyPemOf(privateKeyPem: string | KeyObject): string {
  return createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
}

function verifiesWithAny(data: Buffer, signature: Buffer, trustedKeys: readonly string[]): boolean {
  return trustedKeys.some((pem) => {
    try {
      const key = createPublicKey(pem);
      return key.asymmetricKeyType === 'ed25519' && verify(null, data, key, signature);
    } catch {
      return false;
    }
  });
}

export const MESSAGE_UPDATE_NOT_SIGNED =
  'The update is not signed by Radflow: it was refused and nothing was replaced.';

/**
 * The manifest, if `signatureBase64` is a valid signature of `manifestText` by one of the trusted
 * keys; otherwise a ReleaseError (a missing, malformed or foreign signature alike).
 */
export function verifyReleaseManifest(
  manifestText: string,
  signatureBase64: string | null | undefined,
  trustedKeys: readonly string[],
): TRouterReleaseManifest {
  if (trustedKeys.length === 0)
    throw new ReleaseError('NO_TRUSTED_KEY', 'This router build has no release key: updates are refused.');
  const signature = Buffer.from((signatureBase64 ?? '').trim(), 'base64');
  // An Ed25519 signature is 64 bytes; anything else is no signature.
  if (signature.length !== 64 || !verifiesWithAny(Buffer.from(manifestText, 'utf8'), signature, trustedKeys))
    throw new ReleaseError('BAD_SIGNATURE', MESSAGE_UPDATE_NOT_SIGNED);
  let json: unknown;
  try {
    json = JSON.parse(manifestText);
  } catch {
    throw new ReleaseError('BAD_MANIFEST', 'The update manifest is not valid JSON.');
  }
  const parsed = ZRouterReleaseManifest.safeParse(json);
  if (!parsed.success) throw new ReleaseError('BAD_MANIFEST', 'The update manifest is incomplete.');
  return parsed.data;
}

/** SHA-256 (hex) and size of a file, streamed. */
export async function sha256File(file: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}
