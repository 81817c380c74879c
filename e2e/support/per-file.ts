import { afterAll } from 'vitest';
import { closeSharedBrowser } from './browser.js';

// A setup file runs in each test file: the file's one browser goes when its stories are done (its
// hook is the first registered, so it runs after the file's own afterAll hooks close their contexts).
afterAll(closeSharedBrowser);
