import { describe, expect, it } from 'vitest';
import type { TRole } from '../identity/roles.js';
import {
  canDeleteStudyAttachment,
  canTagStudy,
  canTagStudyRow,
  canUploadStudyAttachment,
} from '../studies/study-files.js';
import {
  canAddAttachment,
  canDeleteAttachment,
  canEditStudyDetails,
  canMarkDeleted,
  canMarkUrgent,
  canRecreateZip,
  canSendToReferringDoctor,
  canSplit,
  rowActions,
} from './actions.js';
import { actingRoles } from './study-row.js';
import { TEST_CENTER_ID, createTestFlags, createTestRow } from './test-builders.js';

/*
 * Issue 4 §2/§6: center users act on their own center's studies only. ROLE_CENTER_SHARE_ALL sees the
 * other centers' studies (studies/access.ts) but they are read-only for it; ROLE_CENTER_BACKUP is
 * read-only everywhere. Group roles a user also holds keep their permissions.
 */

const OTHER_CENTER_ID = TEST_CENTER_ID + 1;
const flags = createTestFlags({ allowToSplitStudy: true, radiologistCanSendToReferringDoctor: true });

/** Every center-user action of the rules, on a fresh CREATED row of `rowCenterId`. */
function centerActions(roles: TRole[], userCenterId: number | null, rowCenterId: number | null) {
  const row = createTestRow({ status: 'CREATED', centerId: rowCenterId });
  const input = { roles, flags, row, userCenterId };
  const files = { roles, row, userCenterId };
  return {
    urgent: canMarkUrgent(input),
    delete: canMarkDeleted({ ...input, hideDeletedSetting: false }),
    split: canSplit(input),
    details: canEditStudyDetails(input),
    share: canSendToReferringDoctor(input),
    addAttachment: canAddAttachment(input, 'history'),
    deleteAttachment: canDeleteAttachment(input, 'film'),
    recreateZip: canRecreateZip(input),
    upload: canUploadStudyAttachment(files, 'HISTORY'),
    removeUpload: canDeleteStudyAttachment(files, 'FILM'),
    tag: canTagStudyRow(files),
  };
}

const allOf = (value: boolean) => ({
  urgent: value,
  delete: value,
  split: value,
  details: value,
  share: value,
  addAttachment: value,
  deleteAttachment: value,
  recreateZip: value,
  upload: value,
  removeUpload: value,
  tag: value,
});

describe('center users act on their own center only', () => {
  it.each<TRole>(['ROLE_CENTER', 'ROLE_CENTER_CUSTOMER', 'ROLE_CENTER_SHARE_ALL', 'ROLE_OFFLINE_HYBRID'])(
    '%s: every center action on its own center',
    (role) => {
      expect(centerActions([role], TEST_CENTER_ID, TEST_CENTER_ID)).toEqual(allOf(true));
    },
  );

  it.each<TRole>(['ROLE_CENTER', 'ROLE_CENTER_CUSTOMER', 'ROLE_CENTER_SHARE_ALL', 'ROLE_OFFLINE_HYBRID'])(
    "%s: none on another center's study",
    (role) => {
      expect(centerActions([role], TEST_CENTER_ID, OTHER_CENTER_ID)).toEqual(allOf(false));
    },
  );

  it('a center role without a center of its own acts nowhere', () => {
    expect(centerActions(['ROLE_CENTER'], null, TEST_CENTER_ID)).toEqual(allOf(false));
  });

  it('a row whose center is unknown (null) is not the user’s own', () => {
    expect(centerActions(['ROLE_CENTER_SHARE_ALL'], TEST_CENTER_ID, null)).toEqual(allOf(false));
  });

  it('ROLE_CENTER_BACKUP is read-only, on its own center too', () => {
    expect(centerActions(['ROLE_CENTER_BACKUP'], TEST_CENTER_ID, TEST_CENTER_ID)).toEqual(allOf(false));
  });

  it('a share-all user who is also admin keeps the admin permissions on other centers', () => {
    const actions = centerActions(['ROLE_CENTER_SHARE_ALL', 'ROLE_ADMIN'], TEST_CENTER_ID, OTHER_CENTER_ID);
    expect(actions).toEqual({
      ...allOf(false),
      urgent: true, // admin (spec-core §4 "center or admin")
      split: true, // SPLIT_ROLES
      details: true, // STUDY_DETAILS_ROLES
      upload: true, // admins manage history and film attachments
      removeUpload: true,
      tag: true, // admins tag
    });
  });

  it('a share-all user who is also a doctor keeps tagging and, with the switch, sharing', () => {
    const actions = centerActions(['ROLE_CENTER_SHARE_ALL', 'ROLE_DOCTOR'], TEST_CENTER_ID, OTHER_CENTER_ID);
    expect(actions).toEqual({ ...allOf(false), share: true, tag: true });
  });

  it('the whole-row summary agrees (rowActions)', () => {
    const summary = (userCenterId: number) =>
      rowActions({
        roles: ['ROLE_CENTER_SHARE_ALL'],
        flags,
        row: createTestRow({ status: 'CREATED' }),
        userCenterId,
        hideDeletedSetting: false,
      });
    const own = summary(TEST_CENTER_ID);
    const other = summary(OTHER_CENTER_ID);
    expect([own.markUrgent, own.markDeleted, own.split, own.addHistoryAttachment]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([other.markUrgent, other.markDeleted, other.split, other.addHistoryAttachment]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    // Read-only still reads: the timeline and the zip download stay.
    expect([other.timeline, other.downloadZip]).toEqual([true, true]);
  });
});

describe('actingRoles', () => {
  it('keeps group roles everywhere and center roles on the own center only', () => {
    const roles: TRole[] = ['ROLE_CENTER_SHARE_ALL', 'ROLE_CENTER_BACKUP', 'ROLE_ASSIGNOR'];
    const on = (centerId: number) => actingRoles({ roles, userCenterId: TEST_CENTER_ID, row: { centerId } });
    expect(on(TEST_CENTER_ID)).toEqual(['ROLE_CENTER_SHARE_ALL', 'ROLE_ASSIGNOR']);
    expect(on(OTHER_CENTER_ID)).toEqual(['ROLE_ASSIGNOR']);
  });

  it('canTagStudy (may tag at all) still reads the roles alone', () => {
    expect(canTagStudy(['ROLE_CENTER_SHARE_ALL'])).toBe(true);
    expect(canTagStudy(['ROLE_VIEWER'])).toBe(false);
  });
});
