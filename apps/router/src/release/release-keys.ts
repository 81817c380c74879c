/**
 * The release PUBLIC keys this router trusts for updates (PEM, Ed25519). The build script embeds
 * them (esbuild `define`): the public half of the key it signs with, plus any named with
 * `--also-trust` (key rotation: the old build trusts the new key before the new key signs).
 * The private key never enters the repo nor the artefact (RELEASE.md). Unbundled (tsx, tests) there
 * is none: every update is refused until keys are passed in explicitly.
 */
declare const __RADFLOW_RELEASE_PUBLIC_KEYS__: string | undefined;

export function embeddedReleaseKeys(): string[] {
  const raw = typeof __RADFLOW_RELEASE_PUBLIC_KEYS__ === 'string' ? __RADFLOW_RELEASE_PUBLIC_KEYS__ : '[]';
  const keys: unknown = JSON.parse(raw);
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
}
