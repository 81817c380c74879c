import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { CreateStudyDialog, LoginPage, Shell } from '../support/pages.js';

const FIXTURES = resolve(import.meta.dirname, '../../packages/dicom/test-fixtures');

describe('Create Study with images from the browser', () => {
  let session: TBrowserSession;
  beforeAll(async () => {
    session = await openBrowser();
  });
  afterAll(async () => {
    await session.close();
  });

  it('a center creates a study, uploads two DICOM files and a text file, and sees the text file refused', async () => {
    const { page } = session;
    const login = new LoginPage(page);
    const shell = new Shell(page);
    await login.open();
    await login.signIn('center@demo.local', 'demo12345');
    await shell.waitUntilSignedIn();

    const dialog = new CreateStudyDialog(page);
    await dialog.open(shell);
    // A center user's center is their own and cannot be changed (spec-core §5).
    await dialog.root.getByText('Your center').waitFor();
    expect(await dialog.select('Center').getAttribute('aria-disabled')).toBe('true');

    await dialog.field('Patient name').fill('E2E Liver Patient');
    await dialog.field('UHID').fill('UH-E2E-1');
    await dialog.choose('Modality', 'CT');
    await dialog.field('Patient age').fill('45Y');
    await dialog.choose('Patient gender', 'Female');
    await dialog.field('Study name').fill('CT Abdomen');
    await dialog.field('History').fill('Pain in the right upper quadrant');
    await dialog.pickFiles([
      resolve(FIXTURES, 'ct/study_liver/ct_liver_01.dcm'),
      resolve(FIXTURES, 'ct/study_liver/ct_liver_02.dcm'),
      resolve(FIXTURES, 'bad/not_dicom_text.dcm'),
    ]);
    await dialog.root.getByText(/^3 files selected/).waitFor();
    // The headers are read in the browser (issue 21 §4): an empty field takes the files' value, a
    // typed one stays and both are shown.
    await dialog.root.getByText('The files say JANCT000; yours is kept').waitFor();
    expect(await dialog.field('Patient id').inputValue()).toBe('99000');
    await dialog.submit();

    await dialog.root.getByText('file uploaded 3 out of 3').waitFor();
    await dialog.root.getByText('2 images stored').waitFor();
    await dialog.root.getByText('1 file was refused:').waitFor();
    await dialog.root.getByText(/^not_dicom_text\.dcm — /).waitFor();

    await dialog.root.getByRole('button', { name: 'Close' }).click();
    await dialog.root.waitFor({ state: 'hidden' });
  });
});
