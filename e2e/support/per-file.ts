import { closeSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { browserTroubleOfOpenContexts, closeSharedBrowser } from './browser.js';
import { storyServer } from './server.js';

// A setup file runs in each test file: the file's one browser goes when its stories are done (its
// hook is the first registered, so it runs after the file's own afterAll hooks close their contexts).
afterAll(closeSharedBrowser);

// The file holds its worker's server while it runs: a second file on the same server at the same
// time (the stories change the demo group's data) fails here instead of in a confusing story.
const claim = join(storyServer().sessionsDir, 'in-use');
beforeAll(() => {
  try {
    closeSync(openSync(claim, 'wx'));
  } catch (error) {
    throw new Error(`another file is using this story server (${claim}): ${String(error)}`);
  }
});
afterAll(() => rmSync(claim, { force: true }));

// A story that fails on a wait says what its pages met (errors, failed requests, the address).
beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    const told = browserTroubleOfOpenContexts();
    if (told) console.error(`What the browser met before this failure:\n${told}`);
  });
});
