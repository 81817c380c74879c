import { describe, expect, it } from 'vitest';
import { type TDraftCopy, type TSavedCopy, ZReportDraftRequest, chooseReportOpening } from './drafts.js';

const saved = (over: Partial<TSavedCopy> = {}): TSavedCopy => ({
  name: 'CT Chest',
  content: '<p>saved</p>',
  version: 2,
  savedAt: '2026-11-21T10:00:00.000Z',
  savedBy: 'doc@demo.local',
  ...over,
});
const draft = (over: Partial<TDraftCopy> = {}): TDraftCopy => ({
  name: 'CT Chest',
  content: '<p>typed</p>',
  baseVersion: 2,
  updatedAt: '2026-11-21T10:05:00.000Z',
  ...over,
});
const me = 'doc@demo.local';

describe('chooseReportOpening (the newest of saved report, server draft and device copy)', () => {
  it('opens the saved report when there is no draft, or the draft equals it', () => {
    expect(chooseReportOpening({ saved: saved(), serverDraft: null, deviceDraft: null, me }).kind).toBe(
      'SAVED',
    );
    const same = draft({ content: '<p>saved</p>' });
    expect(chooseReportOpening({ saved: saved(), serverDraft: same, deviceDraft: null, me }).kind).toBe(
      'SAVED',
    );
  });

  it('opens the newer of the device and server drafts when it builds on the saved version', () => {
    const device = draft({ content: '<p>device</p>', updatedAt: '2026-11-21T10:06:00.000Z' });
    const server = draft({ content: '<p>server</p>', updatedAt: '2026-11-21T10:05:00.000Z' });
    expect(chooseReportOpening({ saved: saved(), serverDraft: server, deviceDraft: device, me })).toEqual({
      kind: 'DRAFT',
      draft: device,
      from: 'DEVICE',
    });
    const newerServer = draft({ content: '<p>server</p>', updatedAt: '2026-11-21T10:07:00.000Z' });
    expect(
      chooseReportOpening({ saved: saved(), serverDraft: newerServer, deviceDraft: device, me }),
    ).toMatchObject({ kind: 'DRAFT', from: 'SERVER' });
  });

  it('opens a draft when nothing was saved yet', () => {
    const d = draft({ baseVersion: null });
    expect(chooseReportOpening({ saved: null, serverDraft: null, deviceDraft: d, me })).toMatchObject({
      kind: 'DRAFT',
      from: 'DEVICE',
    });
  });

  it('asks when someone else saved after the draft was started', () => {
    const other = saved({ version: 3, savedBy: 'verifier@demo.local', savedAt: '2026-11-21T10:10:00.000Z' });
    const opening = chooseReportOpening({ saved: other, serverDraft: draft(), deviceDraft: null, me });
    expect(opening).toMatchObject({ kind: 'CONFLICT', from: 'SERVER', saved: other });
  });

  it("keeps the writer's own later save (another device) over an older draft", () => {
    const mine = saved({ version: 3, savedAt: '2026-11-21T10:10:00.000Z' });
    expect(chooseReportOpening({ saved: mine, serverDraft: null, deviceDraft: draft(), me }).kind).toBe(
      'SAVED',
    );
  });
});

describe('ZReportDraftRequest', () => {
  it('accepts an empty name and no base version, refuses content over the cap', () => {
    expect(ZReportDraftRequest.parse({ content: '<p>x</p>' })).toEqual({
      name: '',
      content: '<p>x</p>',
      baseVersion: null,
    });
    expect(ZReportDraftRequest.safeParse({ content: 'x'.repeat(500_001) }).success).toBe(false);
  });
});
