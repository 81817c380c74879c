import type SharpLib from 'sharp';

/**
 * sharp (native) is loaded on first use, never when the router loads: the packaged router's
 * --version and --self-test, and a router that never prints or renders, must run where it cannot
 * load (release/build.test.ts). A failed load becomes the caller's own error (`failure`, given the
 * first line of the reason): a printer's failure for a print, a 502 for a rendered frame.
 */
export async function loadSharp(failure: (why: string) => Error): Promise<typeof SharpLib> {
  try {
    return (await import('sharp')).default;
  } catch (error) {
    throw failure(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
  }
}
