/**
 * The unsaved text of offline reports (HYBRID.md "Unsaved text offline"), kept on the router as the
 * cloud keeps its server drafts: one per study and doctor, replaced by each auto-save, removed by a
 * save of the report on the router. The offline editor keeps every change on the device at once and
 * here a moment later, so the text survives a lost browser profile or a change of PC at the center.
 * It never goes up to the cloud: a draft is not a report (the cloud's own drafts are per row and
 * writer, and the saves that follow go up as versions).
 *
 * Records of the journal (`<ROUTER_DATA_DIR>/hybrid/drafts.journal`, fsynced before the answer, a
 * torn last record cut off at start-up): T (typed: study, doctor, name, content, baseVersion, when),
 * Z (removed).
 */
import { join } from 'node:path';
import type { TReportDraft } from '@radflow/core';
import { JournaledState } from './journaled-state.js';

/** Compact once the journal holds this many records and at least twice the live ones. */
const COMPACT_AFTER_RECORDS = 128;

type TRecord =
  | ({ t: 'T'; studyInstanceUid: string; email: string } & TReportDraft)
  | { t: 'Z'; studyInstanceUid: string; email: string };

export const draftJournalPath = (dataDir: string) => join(dataDir, 'hybrid', 'drafts.journal');

const keyOf = (studyInstanceUid: string, email: string) => `${studyInstanceUid}\n${email.toLowerCase()}`;

export class OfflineDraftStore {
  private readonly drafts = new Map<
    string,
    { studyInstanceUid: string; email: string; draft: TReportDraft }
  >();
  private journal!: JournaledState<TRecord>;

  private constructor(private readonly now: () => Date) {}

  static async open(dataDir: string, now: () => Date = () => new Date()): Promise<OfflineDraftStore> {
    const store = new OfflineDraftStore(now);
    store.journal = await JournaledState.open<TRecord>(
      draftJournalPath(dataDir),
      {
        apply: (record) => store.apply(record),
        liveRecords: () => store.liveRecords(),
        clear: () => store.drafts.clear(),
      },
      COMPACT_AFTER_RECORDS,
    );
    return store;
  }

  /** The doctor's draft of the study's report, or null. */
  draft(studyInstanceUid: string, email: string): TReportDraft | null {
    return this.drafts.get(keyOf(studyInstanceUid, email))?.draft ?? null;
  }

  /** Replaces the doctor's draft; durable before it resolves. */
  async save(
    studyInstanceUid: string,
    email: string,
    typed: Omit<TReportDraft, 'updatedAt'>,
  ): Promise<TReportDraft> {
    const draft: TReportDraft = { ...typed, updatedAt: this.now().toISOString() };
    await this.journal.append({ t: 'T', studyInstanceUid, email, ...draft });
    return draft;
  }

  /** Removes the doctor's draft (none: nothing written). */
  async remove(studyInstanceUid: string, email: string): Promise<void> {
    if (!this.drafts.has(keyOf(studyInstanceUid, email))) return;
    await this.journal.append({ t: 'Z', studyInstanceUid, email });
  }

  close(): Promise<void> {
    return this.journal.close();
  }

  private apply(record: TRecord): void {
    const key = keyOf(record.studyInstanceUid, record.email);
    if (record.t === 'Z') {
      this.drafts.delete(key);
      return;
    }
    const { name, content, baseVersion, updatedAt } = record;
    this.drafts.set(key, {
      studyInstanceUid: record.studyInstanceUid,
      email: record.email,
      draft: { name, content, baseVersion, updatedAt },
    });
  }

  private liveRecords(): TRecord[] {
    return [...this.drafts.values()].map(({ studyInstanceUid, email, draft }) => ({
      t: 'T',
      studyInstanceUid,
      email,
      ...draft,
    }));
  }
}
