import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { STUDY_EVENT_RULES, STUDY_EVENT_TYPES, type TStudyEventType } from '@radflow/core';
import type { Tx } from '../../db/client.js';
import { studyEvents } from '../../db/schema.js';
import { recordStudyEvent, studyEventName } from './record-study-event.js';

/*
 * Type-level guards (issue 22 §2 "a misspelt event must not compile"): `tsc -p apps/server` checks
 * this file. Each `@ts-expect-error` fails the type check as soon as the line below it compiles,
 * i.e. when a misspelt name or a wrong detail would be accepted. Never called.
 */
export function misspeltEventsDoNotCompile(tx: Tx): void {
  // @ts-expect-error IMAGE_ATTACHED is not a study event (IMAGES_ATTACHED is)
  void recordStudyEvent(tx, { type: 'IMAGE_ATTACHED', reportStatusId: 1, actor: {}, payload: null });

  void recordStudyEvent(tx, {
    type: 'IMAGES_ATTACHED',
    reportStatusId: 1,
    actor: {},
    // @ts-expect-error the detail of another event type
    payload: { visitor: 'v' },
  });

  // @ts-expect-error the column itself is typed: a direct insert cannot misspell either
  void tx.insert(studyEvents).values({ reportStatusId: 1, eventType: 'PAYMENT_PAYED' });

  // @ts-expect-error names in hand-written SQL go through studyEventName
  void studyEventName('STUDY_CREATE');
}

describe('study event names', () => {
  it('reads the column as the core union', () => {
    expectTypeOf<typeof studyEvents.$inferSelect.eventType>().toEqualTypeOf<TStudyEventType>();
  });

  it('puts a checked name into SQL text as it is', () => {
    expect(studyEventName('FOREIGN_IMAGES_REFUSED')).toBe('FOREIGN_IMAGES_REFUSED');
  });

  it("has every event in the module README's table, with its writer and audience", () => {
    const readme = readFileSync(new URL('README.md', import.meta.url), 'utf8');
    for (const type of STUDY_EVENT_TYPES) {
      const line = readme.split('\n').find((l) => l.startsWith(`| \`${type}\` |`));
      const cells = line?.split('|').map((c) => c.trim());
      const { writer, notifies } = STUDY_EVENT_RULES[type];
      expect(cells?.slice(3, 5), type).toEqual([writer, notifies.length ? notifies.join(', ') : '—']);
    }
  });
});
