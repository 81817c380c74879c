import { defaultSearchTableRequest, tabsForList } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import { listCallBody } from './study-list-api';
import { isUploadPending } from './study-columns-meta';

const search = defaultSearchTableRequest();
const tab = (kind: Parameters<typeof tabsForList>[0], key: string) =>
  tabsForList(kind).find((t) => t.key === key)!;

describe('the list call body (spec-core §7)', () => {
  it('sends the admin tab fields, My Pending as assignedTos ME', () => {
    const body = listCallBody({
      path: '/dicom-web/studies/',
      search,
      filter: tab('admin', 'myPending').filter,
    });
    expect(body).toMatchObject({ assignedTos: ['ME'], page: 0, size: 20 });
    expect(body.statuses).toEqual(['CREATED', 'HISTORY_CREATED', 'LOCKED', 'REPORTED', 'DRAFTED']);
    const unassigned = listCallBody({
      path: '/dicom-web/studies/',
      search,
      filter: tab('admin', 'unassigned').filter,
      contextDoctor: 'doc@demo.local',
    });
    expect(unassigned).toMatchObject({ showUnassigned: true, contextDoctor: 'doc@demo.local' });
  });

  it('sends only statuses and showUrgent to POST /report-status/', () => {
    const body = listCallBody({
      path: '/report-status/',
      search,
      filter: { ...tab('center', 'urgent').filter, showAssigned: true, assignedTos: 'ME' },
      contextDoctor: 'doc@demo.local',
    });
    expect(body.showUrgent).toBe(true);
    expect(body).not.toHaveProperty('showAssigned');
    expect(body).not.toHaveProperty('assignedTos');
    expect(body).not.toHaveProperty('contextDoctor');
  });
});

describe('the upload-pending badge', () => {
  it('shows for an API upload (version above 1) whose last upload has not completed', () => {
    expect(isUploadPending({ apiVersion: 2, lastUploadCompletedAt: null })).toBe(true);
    expect(isUploadPending({ apiVersion: 2, lastUploadCompletedAt: '2026-01-01T00:00:00Z' })).toBe(false);
    expect(isUploadPending({ apiVersion: 1, lastUploadCompletedAt: null })).toBe(false);
  });
});
