import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { eventually } from './pages.js';
import { readOutbox } from './outbox.js';
import { storyServer } from './server.js';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '../..');
/** A CT image of the repository's licensed corpus (packages/dicom/test-fixtures). */
const CT_FIXTURE = join(repoRoot, 'packages/dicom/test-fixtures/ct/study_liver/ct_liver_01.dcm');
/** The server's DICOM AE title (config DICOM_AET default). */
const SERVER_AET = 'RADFLOW';

/** Manage centers (issue 21 §9): the table and the Add/Edit center dialog. */
export class CentersPage {
  constructor(private readonly page: Page) {}

  async addCenter(center: { name: string; email: string; aeTitles: string }): Promise<void> {
    await this.page.getByRole('button', { name: 'Add center' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Add center' });
    const field = (name: string) => dialog.getByRole('textbox', { name, exact: true });
    await field('Name').fill(center.name);
    await field('E-mail').fill(center.email);
    await field('DICOM AE titles').fill(center.aeTitles);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  row(text: string) {
    return this.page.getByRole('table', { name: 'Centers' }).getByRole('row').filter({ hasText: text });
  }
}

/** Manage users (issue 21 §9): the table and the Invite user dialog. */
export class UsersPage {
  constructor(private readonly page: Page) {}

  async invite(user: { email: string; name: string; role: string }): Promise<void> {
    await this.page.getByRole('button', { name: 'Invite user' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Invite user' });
    await dialog.getByRole('textbox', { name: 'E-mail', exact: true }).fill(user.email);
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(user.name);
    await dialog.getByRole('checkbox', { name: user.role, exact: true }).check();
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog.waitFor({ state: 'detached' });
  }

  row(email: string) {
    return this.page.getByRole('row', { name: email });
  }
}

/** The set-password page a link opens. */
export class SetPasswordPage {
  constructor(private readonly page: Page) {}

  async setPassword(password: string): Promise<void> {
    await this.page.getByLabel('New password').fill(password);
    await this.page.getByLabel('Repeat the password').fill(password);
    await this.page.getByRole('button', { name: 'Set password' }).click();
    await this.page.getByText('Your password is set.').waitFor();
  }
}

/** The set-password link of the newest e-mail to an address, as the outbox recorded it. */
export async function waitForSetPasswordLink(email: string): Promise<string> {
  let link: string | undefined;
  await eventually(() => {
    link = readOutbox()
      .filter((m) => m.channel === 'EMAIL' && m.recipient === email)
      .at(-1)
      ?.body.match(/https?:\/\/\S+\/set-password\?token=[A-Za-z0-9_-]+/)?.[0];
    return link;
  }, `no set-password link for ${email} in the outbox`).toBeDefined();
  return link!;
}

/**
 * Sends a copy of a corpus CT image, with new UIDs and the given patient name (dcmodify), to the
 * server's DICOM port with DCMTK's storescu calling as `callingAet`. Returns storescu's exit code.
 */
export async function storeWithAe(callingAet: string, patientName: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'radflow-e2e-dicom-'));
  const file = join(dir, 'image.dcm');
  try {
    copyFileSync(CT_FIXTURE, file);
    await run('dcmodify', ['-nb', '-gst', '-gse', '-gin', '-m', `(0010,0010)=${patientName}`, file]);
    const env = { ...process.env, TCP_NODELAY: '1' };
    const port = String(storyServer().dicomPort);
    try {
      await run('storescu', ['-aet', callingAet, '-aec', SERVER_AET, '127.0.0.1', port, file], { env });
      return 0;
    } catch (error) {
      return (error as { code?: number }).code ?? 1;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
