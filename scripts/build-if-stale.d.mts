// Types of build-if-stale.mjs for the tests that import it.
export const BUILD_INPUTS: readonly string[];
export const BUILD_OUTPUTS: readonly string[];
export const STAMP: string;
export function buildInputFiles(root: string): string[];
export function buildInputsHash(root: string): string;
export function buildState(root: string): { upToDate: boolean; hash: string; reason: string };
export function writeBuildStamp(root: string, hash: string): void;
