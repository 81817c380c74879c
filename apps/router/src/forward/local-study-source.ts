import { randomUUID } from 'node:crypto';
import { link, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { InstanceQueue } from '../queue/queue.js';
import { type StudyFiles, type StudySource, StudyNotFoundError, isUid } from './study-source.js';

/**
 * The router's own spool as a send-job's first source (issue 27 §3 "from the cloud or the local
 * queue"): a study the router still holds is sent from its disk, not fetched back from the cloud.
 * The files are hard-linked into a folder of the queue's temp directory (same file system, cleared
 * at start) so a delete-uploaded-study during the send cannot pull them away; `release` removes it.
 */
export class QueueStudySource implements StudySource {
  constructor(private readonly queue: InstanceQueue) {}

  async open(studyInstanceUid: string): Promise<StudyFiles> {
    if (!isUid(studyInstanceUid))
      throw new StudyNotFoundError(`Not a Study Instance UID: ${studyInstanceUid}`);
    const files = this.queue.studyFiles(studyInstanceUid);
    if (!files || files.length === 0)
      throw new StudyNotFoundError(`Study ${studyInstanceUid} is not on the router`);
    const dir = path.join(this.queue.tempDir, `send-${randomUUID()}`);
    await mkdir(dir, { recursive: true });
    const linked: string[] = [];
    try {
      for (const file of files) {
        const target = path.join(dir, path.basename(file));
        try {
          await link(file, target);
          linked.push(target);
        } catch (error) {
          // Deleted between the listing and the link: the cloud has it, the rest still goes.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    if (linked.length === 0) {
      await rm(dir, { recursive: true, force: true });
      throw new StudyNotFoundError(`Study ${studyInstanceUid} is not on the router`);
    }
    linked.sort();
    return { files: linked, release: () => rm(dir, { recursive: true, force: true }) };
  }
}
