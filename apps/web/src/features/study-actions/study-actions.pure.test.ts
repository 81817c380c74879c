import { CONFIRMATIONS, TAG_MESSAGES, type TStudyEvent } from '@radflow/core';
import { describe, expect, it } from 'vitest';
import { checkAttachmentFiles, uploadProgressText } from './attachment-upload';
import { MAX_PICKER_OPTIONS, filterUserOptions } from './picker-filter';
import { buildQrPrintHtml } from './qr-print';
import { shareUrlOf } from './share-url';
import { STATE_ACTIONS, confirmTextOf } from './state-actions';
import { canChangeTag, tagChoiceOptions, tagToAssign } from './tag-rules';
import { eventActor, eventDetail, eventLabel, eventStatusChange } from './timeline-text';
import { activeEmails } from './use-study-actions';

describe('state actions', () => {
  it('confirms each with core text and calls the spec path', () => {
    expect(confirmTextOf('delete')).toBe(CONFIRMATIONS.markDeleted.text);
    expect(confirmTextOf('rework')).toMatch(/All reports of this study will be deleted/);
    expect(STATE_ACTIONS.delete.call).toBe('mark-delete');
    expect(STATE_ACTIONS.urgent.doneText({ urgent: true })).toBe('Urgent mark removed');
    expect(STATE_ACTIONS.urgent.doneText({ urgent: false })).toBe('Study marked urgent');
    expect(STATE_ACTIONS.split.doneText({ urgent: false }, { id: 88 })).toBe('Study split: new study 88');
  });
});

describe('tag rules', () => {
  it('assigns nothing when empty or already on the study (spec-core §5)', () => {
    expect(tagToAssign('   ', [])).toBeNull();
    expect(tagToAssign(' covid ', [{ tag: 'COVID' }])).toBeNull();
    expect(tagToAssign('  lung   nodule ', [])).toBe('lung nodule');
  });

  it('offers known tags not on the study yet, once each', () => {
    const choices = [
      { tag: 'b', globalTag: true },
      { tag: 'a', globalTag: false },
      { tag: 'b', globalTag: false },
    ];
    expect(tagChoiceOptions(choices, [{ tag: 'A' }])).toEqual(['b']);
  });

  it('lets the creator or an admin change a tag', () => {
    const tag = { createdBy: 'Doc@demo.local' };
    expect(canChangeTag({ roles: ['ROLE_DOCTOR'], email: 'doc@demo.local' }, tag)).toBe(true);
    expect(canChangeTag({ roles: ['ROLE_DOCTOR'], email: 'other@demo.local' }, tag)).toBe(false);
    expect(canChangeTag({ roles: ['ROLE_ADMIN'], email: 'other@demo.local' }, tag)).toBe(true);
  });

  it('uses the spec texts for the tag confirmations', () => {
    expect(CONFIRMATIONS.deleteTag.text).toBe(TAG_MESSAGES.confirmDelete);
    expect(CONFIRMATIONS.makeTagLocal.text).toBe(TAG_MESSAGES.confirmMakeLocal);
    expect(CONFIRMATIONS.makeTagGlobal.text).toBe(TAG_MESSAGES.confirmMakeGlobal);
  });
});

describe('attachments', () => {
  it('refuses types outside spec-core §5 and empty files before uploading', () => {
    const { accepted, refusals } = checkAttachmentFiles([
      { name: 'scan.pdf', size: 10 },
      { name: 'photo.JPG', size: 10 },
      { name: 'virus.exe', size: 10 },
      { name: 'empty.txt', size: 0 },
    ]);
    expect(accepted.map((f) => f.name)).toEqual(['scan.pdf', 'photo.JPG']);
    expect(refusals).toHaveLength(2);
    expect(refusals[0]).toMatch(/virus\.exe/);
  });

  it("counts 'file uploaded N out of M'", () => {
    expect(uploadProgressText(2, 5)).toBe('file uploaded 2 out of 5');
  });
});

describe('user pickers', () => {
  it('lists the active users of a role, sorted, once each', () => {
    const mapping = {
      ROLE_DOCTOR: [
        { email: 'b@x', active: true },
        { email: 'a@x', active: true },
        { email: 'c@x', active: false },
        { email: 'a@x', active: true },
      ],
    };
    expect(activeEmails(mapping, 'ROLE_DOCTOR')).toEqual(['a@x', 'b@x']);
    expect(activeEmails(mapping, 'ROLE_AUDITOR')).toEqual([]);
  });

  it('filters case-insensitively and shows at most 30', () => {
    const many = Array.from({ length: 40 }, (_, i) => `doc${i}@demo.local`);
    expect(filterUserOptions(many, '')).toHaveLength(MAX_PICKER_OPTIONS);
    expect(filterUserOptions(many, 'DOC3')).toEqual(['doc3@demo.local', ...many.slice(30, 40)]);
    expect(filterUserOptions(many, 'nobody')).toEqual([]);
  });
});

describe('timeline text', () => {
  const event = (over: Partial<TStudyEvent>): TStudyEvent => ({
    id: 1,
    reportStatusId: 2,
    eventType: 'ASSIGNED',
    actorEmail: 'assignor@demo.local',
    actorName: null,
    actorLabel: null,
    fromStatus: null,
    toStatus: null,
    detail: null,
    createdAt: '2026-06-01T08:00:00Z',
    ...over,
  });

  it('says what happened, who did it and the status change, SENT for HISTORY_CREATED', () => {
    expect(eventLabel('SENT_FOR_REPORTING')).toBe('Sent for reporting');
    expect(eventLabel('FILM_ATTACHED')).toBe('Film attached');
    expect(eventActor(event({}))).toBe('assignor@demo.local');
    expect(eventActor(event({ actorEmail: null, actorLabel: 'DEMOCENTER' }))).toBe('DEMOCENTER');
    expect(eventStatusChange(event({ fromStatus: 'CREATED', toStatus: 'HISTORY_CREATED' }))).toBe(
      'CREATED → SENT',
    );
    expect(eventStatusChange(event({ fromStatus: 'LOCKED', toStatus: 'LOCKED' }))).toBe('');
    expect(eventDetail(event({ detail: { assignedTo: 'doc@demo.local' } }))).toBe('doc@demo.local');
    expect(eventDetail(event({ detail: { changed: ['patientName', 'uhid'] } }))).toBe(
      'changed: patientName, uhid',
    );
  });
});

describe('QR print', () => {
  it('opens the share page of the token, or a full address as it is', () => {
    expect(shareUrlOf('tok en', 'https://rad.example')).toBe('https://rad.example/share?link=tok%20en');
    expect(shareUrlOf('https://x.example/share?link=1', 'https://rad.example')).toBe(
      'https://x.example/share?link=1',
    );
  });

  it('escapes the study facts on the printed page and sizes it per layout', () => {
    const facts = {
      patientName: '<b>Ann</b>',
      patientId: 'P1',
      studyName: 'CT',
      studyId: 9,
      center: 'C & D',
    };
    const sticker = buildQrPrintHtml('sticker', 'data:image/png;base64,AA', facts);
    expect(sticker).toContain('&#60;b&#62;Ann');
    expect(sticker).not.toContain('<b>Ann');
    expect(sticker).toContain('size: 50mm 25mm');
    expect(sticker).not.toContain('C &#38; D');
    const a4 = buildQrPrintHtml('a4', 'data:image/png;base64,AA', facts);
    expect(a4).toContain('size: A4');
    expect(a4).toContain('C &#38; D');
  });
});
