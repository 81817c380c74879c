import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import { hasFullViewer, isCenterOnlyUser, seesActiveInViewer, viewerEntry } from './entry.js';

const entry = (opts: Partial<Parameters<typeof viewerEntry>[0]> = {}) =>
  viewerEntry({ status: opts.status ?? 'CREATED', upload: opts.upload ?? 'COMPLETE' });

describe('viewerEntry (spec-core §2 Viewer entry, §4, §5)', () => {
  it('opens a fully uploaded study without a message', () => {
    expect(entry()).toEqual({ allowed: true });
  });

  it('refuses a deleted study with the spec text', () => {
    expect(entry({ status: 'DELETED' })).toEqual({ allowed: false, message: 'Study has been deleted' });
  });

  it('refuses a study with no image and warns on a partial upload', () => {
    expect(entry({ upload: 'NONE' })).toEqual({
      allowed: false,
      message: 'Study not uploaded, please contact center',
    });
    expect(entry({ upload: 'PARTIAL' })).toEqual({
      allowed: true,
      message: 'Study is not fully uploaded. please check with center',
    });
  });
});

describe('hasFullViewer (spec-core §2: centers only with enableFullViewerForCenter)', () => {
  const full = (roles: TRole[], enableFullViewerForCenter = false) =>
    hasFullViewer({ roles, flags: { enableFullViewerForCenter } });

  it('gives center users the basic viewer unless the group enables the full one', () => {
    expect(full(['ROLE_CENTER'])).toBe(false);
    expect(full(['ROLE_CENTER'], true)).toBe(true);
  });

  it('keeps the full viewer for readers and for group staff attached to a center', () => {
    expect(full(['ROLE_DOCTOR'])).toBe(true);
    expect(full(['ROLE_CENTER', 'ROLE_ADMIN'])).toBe(true);
  });

  it('counts a user as a center user only when every role is a center role', () => {
    expect(isCenterOnlyUser(['ROLE_CENTER', 'ROLE_CENTER_SHARE_ALL'])).toBe(true);
    expect(isCenterOnlyUser(['ROLE_CENTER', 'ROLE_DOCTOR'])).toBe(false);
    expect(isCenterOnlyUser([])).toBe(false);
  });
});

describe('seesActiveInViewer (spec-core §6)', () => {
  it('is an assignor of a group with showActiveInViewer on', () => {
    expect(seesActiveInViewer(['ROLE_ASSIGNOR'], { showActiveInViewer: true })).toBe(true);
    expect(seesActiveInViewer(['ROLE_ASSIGNOR'], { showActiveInViewer: false })).toBe(false);
    expect(seesActiveInViewer(['ROLE_DOCTOR', 'ROLE_VERIFIER'], { showActiveInViewer: true })).toBe(false);
  });
});
