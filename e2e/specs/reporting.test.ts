import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type TBrowserSession } from '../support/browser.js';
import { mailAttachments, pdfText, docxText, waitForMail } from '../support/documents.js';
import { waitForOtp } from '../support/outbox.js';
import { StudyList, eventually } from '../support/pages.js';
import {
  ReportEditorScreen,
  downloadOf,
  setGroupSection,
  signatureNameOf,
  studyRow,
  type TStudyRowFacts,
} from '../support/reporting.js';
import { createStudiesViaApi, openSignedIn, uniqueTag } from '../support/worklist.js';

const RUN = uniqueTag();
const DOCTOR = 'doctor@demo.local';
const CENTER = 'center@demo.local';
const GROUP_ADMIN = 'group@demo.local';

/** A study of the demo center with the patient's mobile (for the share page's code) and details. */
async function centerStudy(
  center: TBrowserSession,
  patientName: string,
  mobile: string,
): Promise<TStudyRowFacts> {
  const [id] = await createStudiesViaApi(center.page, [patientName]);
  const res = await center.page.request.post(`/api/report-status/update-details/${id}`, {
    data: {
      patientName,
      patientAge: '40Y',
      patientId: `PID-${RUN}`,
      patientSex: 'M',
      studyName: 'CT Brain Plain',
      referringPhysicianName: 'Dr. Referrer',
      history: 'Headache',
      mobileNumber: mobile,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return studyRow(center.page, id!);
}

/**
 * Issue 7 §7: a report from the template to the patient's phone. One study passes from story to
 * story in order (written, downloaded, refused to a reader, re-sign-off blocked, e-mailed, shared);
 * the typist → doctor → verifier story has a study of its own.
 */
describe('Reporting: from a template to the patient', () => {
  const patient = `E2E Report ${RUN}`;
  const mobile = `9${String(Date.now()).slice(-9)}`;
  const templateName = `E2E CT Brain ${RUN}`;
  const templateWord = `Templateword${RUN}`;
  const typedWord = `Impression${RUN}`;
  let study: TStudyRowFacts;
  let open: TBrowserSession | undefined;

  beforeAll(async () => {
    const center = await openSignedIn(CENTER, { home: false });
    try {
      study = await centerStudy(center, patient, mobile);
    } finally {
      await center.close();
    }
  });
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  it('a doctor writes from a template, saves and signs off', async () => {
    open = await openSignedIn(DOCTOR);
    const { page } = open;
    const made = await page.request.post('/api/report-template/', {
      data: {
        name: templateName,
        content: `<p>Brain parenchyma normal. ${templateWord}</p>`,
        modalities: ['CT'],
      },
    });
    expect(made.status(), await made.text()).toBe(200);

    const editor = new ReportEditorScreen(page);
    await editor.open(study);
    await editor.insertTemplate(templateName);
    await eventually(() => editor.editor.innerText()).toContain(templateWord);
    await editor.type(`${typedWord}: no acute intracranial bleed.`);
    await editor.save();
    await editor.expectStatus(/REPORTED/);

    await editor.signOff('Report signed off');
    await editor.expectStatus(/Signed off by/);
    expect((await studyRow(page, study.id)).status).toBe('SIGNED_OFF');
  });

  it('the center downloads the PDF (patient, report, doctor) and the Word file', async () => {
    open = await openSignedIn(CENTER, { home: false });
    const { page } = open;
    const signedBy = await signatureNameOf(page, study.id);
    const list = new StudyList(page);
    await list.open('/status');
    await list.selectTab('All');
    await list.filterBy('Patient', patient, 1);
    const actions = list.actions(list.row(patient));

    const openMenu = async () => {
      const button = actions.button('Print report');
      if (await button.count()) await button.click();
      else await actions.fromMenu('Print report');
    };
    const pdf = await downloadOf(page, async () => {
      await openMenu();
      await page.getByRole('menuitem', { name: 'PDF', exact: true }).click();
    });
    expect(pdf.name).toMatch(/\.pdf$/);
    const text = await pdfText(pdf.bytes);
    expect(text).toContain(patient);
    expect(text).toContain(templateWord);
    expect(text).toContain(typedWord);
    expect(text).toContain(signedBy);

    const word = await downloadOf(page, async () => {
      await openMenu();
      await page.getByRole('menuitem', { name: 'Word', exact: true }).click();
    });
    expect(word.name).toMatch(/\.docx$/);
    const words = await docxText(word.bytes);
    expect(words).toContain(typedWord);
    expect(words).toContain(patient);
  });

  it('a referring doctor reads the report and gets a 403 on edit', async () => {
    const center = await openSignedIn(CENTER, { home: false });
    try {
      const shared = await center.page.request.post('/api/report-status/save', {
        data: { reportStatusId: study.id, referringDoctorEmail: 'referring-doctor@demo.local' },
      });
      expect(shared.status(), await shared.text()).toBe(200);
    } finally {
      await center.close();
    }
    open = await openSignedIn('referring-doctor@demo.local', { home: false });
    const { page } = open;
    const editor = new ReportEditorScreen(page);
    await editor.open(study);
    await page.getByText('You can read this report but not change it').first().waitFor();
    await eventually(() => page.getByText(typedWord).count()).toBeGreaterThan(0);
    expect(await editor.button('Save').count()).toBe(0);
    expect(await editor.button('Sign off').count()).toBe(0);
    const write = await page.request.post(`/api/report/save/${study.id}`, {
      data: { name: 'Report', content: '<p>changed</p>', signOff: false, baseVersion: null },
    });
    expect(write.status()).toBe(403);
  });

  it('re-sign-off is blocked while the group disables it', async () => {
    const admin = await openSignedIn(GROUP_ADMIN, { home: false });
    open = await openSignedIn(DOCTOR, { home: false });
    const editor = new ReportEditorScreen(open.page);
    try {
      await setGroupSection(admin.page, 'USER_ADMIN_VISIBLE_PREFERENCES', { disableReSignOffOfReport: true });
      await editor.open(study);
      await editor.expectStatus(/Signed off by/);
      await editor.button('Add addendum').waitFor();
      expect(await editor.button('Sign off').count()).toBe(0);
      const again = await open.page.request.post(`/api/report/save/${study.id}`, {
        // Refused for the setting whatever version it names (role and state rules come first).
        data: { name: 'Report', content: `<p>${typedWord} again</p>`, signOff: true, baseVersion: null },
      });
      expect(again.status()).toBe(403);
    } finally {
      await setGroupSection(admin.page, 'USER_ADMIN_VISIBLE_PREFERENCES', {
        disableReSignOffOfReport: false,
      });
      await admin.close();
    }
    // Allowed again: the doctor is offered the re-sign-off once more (issue 21 §7: named as such).
    await editor.open(study);
    await editor.button('Sign off again').waitFor();
  });

  it('the center e-mails the report: it reaches the SMTP server with the PDF attached', async () => {
    open = await openSignedIn(CENTER, { home: false });
    const { page } = open;
    const to = `patient-${RUN.toLowerCase()}@example.test`;
    const list = new StudyList(page);
    await list.open('/status');
    await list.selectTab('All');
    await list.filterBy('Patient', patient, 1);
    const actions = list.actions(list.row(patient));
    const share = actions.button('Share');
    if (await share.count()) await share.click();
    else await actions.fromMenu('Share');
    const dialog = page.getByRole('dialog', { name: /^Share study/ });
    await dialog.waitFor();
    await dialog.getByLabel('E-mail', { exact: true }).fill(to);
    await dialog.getByRole('button', { name: 'Send e-mail' }).click();
    await page.getByText('E-mail sent').first().waitFor();

    const mail = await waitForMail(to);
    const pdfs = [...mailAttachments(mail)].filter(([name]) => name.endsWith('.pdf'));
    expect(pdfs).toHaveLength(1);
    const text = await pdfText(pdfs[0]![1]);
    expect(text).toContain(patient);
    expect(text).toContain(typedWord);
    // The dialog lists the message with its delivery status.
    const messages = dialog.getByRole('table', { name: 'Messages sent' });
    await eventually(() => messages.innerText()).toContain(to);
    await eventually(() => messages.innerText()).toContain('Sent');
  });

  it('the share page opens without signing in', async () => {
    const link = (await shareLinkOf(study.id)) as string;
    open = await openBrowser();
    const { page } = open;
    await page.goto(`/share?link=${encodeURIComponent(link)}`);
    await page.getByRole('heading', { name: patient }).waitFor();
    await eventually(() => page.getByRole('region', { name: 'Report' }).innerText()).toContain(typedWord);
    expect(await page.getByRole('link', { name: 'Download PDF' }).count()).toBe(1);
  });

  it('asks for the code sent to the patient when the group requires it', async () => {
    const link = (await shareLinkOf(study.id)) as string;
    const admin = await openSignedIn(GROUP_ADMIN, { home: false });
    try {
      await setGroupSection(admin.page, 'GROUP_SWITCHES', { requireOtpForSharedReport: true });
      open = await openBrowser();
      const { page } = open;
      await page.goto(`/share?link=${encodeURIComponent(link)}`);
      const gate = page.getByRole('region', { name: 'This report is protected' });
      await gate.waitFor();
      expect(await page.getByText(typedWord).count()).toBe(0);
      await gate.getByRole('button', { name: 'Send code' }).click();
      const code = await waitForOtp(mobile);
      await gate.getByRole('textbox', { name: 'Code' }).fill(code);
      await gate.getByRole('button', { name: 'Open report' }).click();
      await page.getByRole('heading', { name: patient }).waitFor();
      await eventually(() => page.getByRole('region', { name: 'Report' }).innerText()).toContain(typedWord);
    } finally {
      await setGroupSection(admin.page, 'GROUP_SWITCHES', { requireOtpForSharedReport: false });
      await admin.close();
    }
  });
});

/** The row's share link token (as the center sees it on the row). */
async function shareLinkOf(id: number): Promise<string | null> {
  const center = await openSignedIn(CENTER, { home: false });
  try {
    const row = await studyRow(center.page, id);
    expect(row.shareLink, 'the study has a share link once shared').toBeTruthy();
    return row.shareLink;
  } finally {
    await center.close();
  }
}

describe('Reporting: typist → doctor → verifier', () => {
  let study: TStudyRowFacts;
  const patient = `E2E Verify ${uniqueTag()}`;
  const typed = `Typed${RUN}`;
  let admin: TBrowserSession;
  let open: TBrowserSession | undefined;

  beforeAll(async () => {
    const center = await openSignedIn(CENTER, { home: false });
    try {
      study = await centerStudy(center, patient, `8${String(Date.now()).slice(-9)}`);
    } finally {
      await center.close();
    }
    // A typist works on the studies of the doctors they type for: the assignor assigns it first.
    const assignor = await openSignedIn('assignor@demo.local', { home: false });
    try {
      const assigned = await assignor.page.request.post('/api/report-status/assign', {
        data: { reportId: study.id, assignedTo: DOCTOR },
      });
      expect(assigned.status(), await assigned.text()).toBe(200);
    } finally {
      await assignor.close();
    }
    admin = await openSignedIn(GROUP_ADMIN, { home: false });
    await setGroupSection(admin.page, 'VERIFICATION_SETTINGS', {
      needVerification: true,
      selectAllDoctorsAndCenters: true,
    });
  });
  afterAll(async () => {
    await setGroupSection(admin.page, 'VERIFICATION_SETTINGS', {
      needVerification: false,
      selectAllDoctorsAndCenters: false,
    });
    await admin.close();
  });
  afterEach(async () => {
    await open?.close();
    open = undefined;
  });

  it('the typist chooses the doctor, types and saves; there is no sign-off for a typist', async () => {
    open = await openSignedIn('typist@demo.local', { home: false });
    const { page } = open;
    const editor = new ReportEditorScreen(page);
    await page.goto(`/report-edit/${encodeURIComponent(study.instanceId)}/${study.id}`);
    const gate = page.getByTestId('typist-gate');
    await gate.getByText('Please choose the doctor you are typing for').waitFor();
    await gate.getByRole('combobox', { name: 'Doctor' }).click();
    await page.getByRole('option', { name: new RegExp(DOCTOR.replace('.', '\\.')) }).click();
    await gate.getByRole('button', { name: 'Start typing' }).click();
    await editor.type(`${typed}: normal study.`);
    await editor.save();
    expect(await editor.button('Sign off').count()).toBe(0);
  });

  it('the doctor signs off: it goes to the verifier instead', async () => {
    open = await openSignedIn(DOCTOR, { home: false });
    const editor = new ReportEditorScreen(open.page);
    await editor.open(study);
    await eventually(() => editor.editor.innerText()).toContain(typed);
    await editor.signOff('Report sent for verification');
    await editor.expectStatus(/Awaiting verification/);
    expect((await studyRow(open.page, study.id)).status).toBe('REPORTED');
  });

  it('the verifier signs it off', async () => {
    open = await openSignedIn('verifier@demo.local', { home: false });
    const editor = new ReportEditorScreen(open.page);
    await editor.open(study);
    await editor.expectStatus(/Awaiting verification/);
    await editor.signOff('Report signed off');
    await eventually(async () => (await studyRow(open!.page, study.id)).status).toBe('SIGNED_OFF');
  });
});
