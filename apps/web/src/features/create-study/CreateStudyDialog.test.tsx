import {
  CREATE_STUDY_MODALITIES,
  EXTRA_MODALITIES,
  type TCenterOption,
  type TRole,
  type TUserPreferences,
} from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { useState, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { buildCenter, buildPreferences, buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { buildFile, fakeXhr, uploadAnswer } from '../../test/fake-xhr';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { CreateStudyDialog } from './CreateStudyDialog';

// MUI selects in jsdom are slow; on a busy machine these stories need more than the default 5 s.
const SLOW = { timeout: 20_000 };

type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply | Promise<TFakeReply>);

/** What the shell does: the dialog renders once the session is loaded, and unmounts on close. */
function SignedIn({ children }: { children: (onClose: () => void) => ReactNode }) {
  const { data } = useSession();
  const [open, setOpen] = useState(true);
  if (!data || !open) return null;
  return children(() => setOpen(false));
}

/** Signs in as a user with `roles` and opens Create Study (the drawer's wiring is in AppRoot.test). */
async function openCreateStudy({
  roles = ['ROLE_ADMIN'],
  preferences,
  centers = [buildCenter(), buildCenter()],
  handlers = {},
}: {
  roles?: TRole[];
  preferences?: TUserPreferences;
  centers?: TCenterOption[];
  handlers?: Record<string, THandler>;
} = {}) {
  const user = buildUser(roles);
  const api = fakeApi({
    ...sessionHandlers(user, preferences),
    'GET /api/centers': { body: centers },
    ...handlers,
  });
  const view = renderScreen(<SignedIn>{(onClose) => <CreateStudyDialog open onClose={onClose} />}</SignedIn>);
  const dialog = await screen.findByRole('dialog', { name: 'Create Study' });
  await waitFor(() => expect(api.calls('GET', '/api/centers')).toHaveLength(1));
  return { api, dialog, user, centers, ...view };
}

const field = (dialog: HTMLElement, label: string) =>
  within(dialog).getByLabelText(new RegExp(`^${label}`)) as HTMLInputElement;
const type = (dialog: HTMLElement, label: string, value: string) =>
  fireEvent.change(field(dialog, label), { target: { value } });
const select = (dialog: HTMLElement, label: string) =>
  within(dialog).getByRole('combobox', { name: new RegExp(`^${label}`) });

async function optionsOf(dialog: HTMLElement, label: string): Promise<string[]> {
  fireEvent.mouseDown(select(dialog, label));
  const listbox = await screen.findByRole('listbox');
  const options = within(listbox)
    .getAllByRole('option')
    .map((o) => o.textContent ?? '');
  fireEvent.keyDown(listbox, { key: 'Escape' });
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
  return options;
}

async function choose(dialog: HTMLElement, label: string, option: string) {
  // The select the wait found is the one opened: each role query with a name over the dialog costs
  // about as much as the choice itself in jsdom.
  const combobox = await waitFor(() => {
    const found = select(dialog, label);
    expect(found.getAttribute('aria-disabled')).not.toBe('true');
    return found;
  });
  fireEvent.mouseDown(combobox);
  fireEvent.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

async function fillRequired(dialog: HTMLElement, center?: string) {
  type(dialog, 'Patient name', 'Asha Verma');
  await choose(dialog, 'Modality', 'CT');
  type(dialog, 'Patient age', '45Y');
  await choose(dialog, 'Patient gender', 'Female');
  if (center) await choose(dialog, 'Center', center);
  type(dialog, 'Study name', 'CT Abdomen');
}

const submit = (dialog: HTMLElement) =>
  fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));

const pick = (dialog: HTMLElement, files: File[]) =>
  fireEvent.change(within(dialog).getByLabelText('Files'), { target: { files } });

const created = { id: 41, studyInstanceUID: '1.2.826.0.1.41', apiVersion: 2, joinedExisting: false };

describe('Create Study validation (spec-core §5)', SLOW, () => {
  it('names every required field and sends nothing', async () => {
    const { dialog, api } = await openCreateStudy();
    submit(dialog);
    for (const message of [
      'Patient name is required',
      'Modality is required',
      'Patient age is required',
      'Patient gender is required',
      'Center is required',
      'Study name is required',
    ]) {
      expect(within(dialog).getByText(message)).toBeTruthy();
    }
    expect(api.calls('POST', '/api/dicom-web/study/create-from-website')).toHaveLength(0);
  });

  it('refuses a UHID over 20 and an age over 10 characters, and clears a fixed field', async () => {
    const { dialog, centers } = await openCreateStudy();
    await fillRequired(dialog, centers[0]!.name);
    type(dialog, 'UHID', 'U'.repeat(21));
    type(dialog, 'Patient age', '45 years old');
    submit(dialog);
    expect(within(dialog).getByText('UHID must be at most 20 characters')).toBeTruthy();
    expect(within(dialog).getByText('Patient age must be at most 10 characters')).toBeTruthy();
    expect(field(dialog, 'Patient age').getAttribute('aria-invalid')).toBe('true');

    type(dialog, 'Patient age', '45Y');
    expect(within(dialog).queryByText('Patient age must be at most 10 characters')).toBeNull();
    expect(within(dialog).getByText('UHID must be at most 20 characters')).toBeTruthy();
  });

  it('offers CT, MR, DX, US, MG, XA, IR, and NM, RFDX, CDUS only with showExtraModalityType', async () => {
    const plain = await openCreateStudy();
    expect(await optionsOf(plain.dialog, 'Modality')).toEqual([...CREATE_STUDY_MODALITIES]);
    plain.unmount();

    const extra = await openCreateStudy({
      preferences: buildPreferences((p) => {
        p.GROUP_SWITCHES.showExtraModalityType = true;
      }),
    });
    expect(await optionsOf(extra.dialog, 'Modality')).toEqual([
      ...CREATE_STUDY_MODALITIES,
      ...EXTRA_MODALITIES,
    ]);
    expect(await optionsOf(extra.dialog, 'Patient gender')).toEqual(['Male', 'Female', 'Other']);
  });
});

describe('Create Study', SLOW, () => {
  it("fixes a center user's center to their own", async () => {
    const own = buildCenter({ name: 'Sunrise Imaging' });
    const { dialog, api } = await openCreateStudy({
      roles: ['ROLE_CENTER'],
      centers: [own],
      handlers: { 'POST /api/dicom-web/study/create-from-website': { body: created } },
    });
    await waitFor(() => expect(select(dialog, 'Center').textContent).toBe('Sunrise Imaging'));
    expect(select(dialog, 'Center').getAttribute('aria-disabled')).toBe('true');
    expect(within(dialog).getByText('Your center')).toBeTruthy();

    await fillRequired(dialog);
    submit(dialog);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Study' })).toBeNull());
    expect(api.calls('POST', '/api/dicom-web/study/create-from-website')[0]?.json()).toMatchObject({
      center: own.id,
    });
    expect(screen.getByText('Study created')).toBeTruthy();
  });

  it('creates the study, uploads the images to it and refreshes the study lists', async () => {
    let answer: (reply: TFakeReply) => void = () => undefined;
    const { dialog, api, centers, queryClient } = await openCreateStudy({
      handlers: {
        'POST /api/dicom-web/study/create-from-website': () =>
          new Promise<TFakeReply>((resolve) => {
            answer = resolve;
          }),
      },
    });
    const xhr = fakeXhr((request) => ({ body: uploadAnswer(request, { reportStatusId: created.id }) }));
    queryClient.setQueryData(['studies', 'centerReportList'], []);

    await fillRequired(dialog, centers[1]!.name);
    type(dialog, 'UHID', 'UH-77');
    type(dialog, 'History', 'Pain in the right upper quadrant');
    pick(dialog, [buildFile('ct_01.dcm', 2048), buildFile('ct_02.dcm', 1024)]);
    expect(within(dialog).getByText('2 files selected, 3 KB')).toBeTruthy();

    submit(dialog);
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Submit' }).hasAttribute('disabled')).toBe(true),
    );
    answer({ body: created });

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Study' })).toBeNull());
    expect(api.calls('POST', '/api/dicom-web/study/create-from-website')[0]?.json()).toMatchObject({
      patientName: 'Asha Verma',
      uhid: 'UH-77',
      labModality: 'CT',
      patientAge: '45Y',
      patientSex: 'F',
      center: centers[1]!.id,
      studyName: 'CT Abdomen',
      history: 'Pain in the right upper quadrant',
    });
    expect(xhr.requests).toHaveLength(1);
    expect(xhr.requests[0]?.field('reportStatusId')).toBe(String(created.id));
    expect(xhr.requests[0]?.files().map((f) => f.name)).toEqual(['ct_01.dcm', 'ct_02.dcm']);
    expect(screen.getByText('Image attached')).toBeTruthy();
    expect(queryClient.getQueryState(['studies', 'centerReportList'])?.isInvalidated).toBe(true);
  });

  it('stays open to list the files the server refused', async () => {
    const { dialog, centers } = await openCreateStudy({
      handlers: { 'POST /api/dicom-web/study/create-from-website': { body: created } },
    });
    fakeXhr((request) => ({
      body: uploadAnswer(request, { refuse: { 'not_dicom_text.dcm': 'not a DICOM file' } }),
    }));
    await fillRequired(dialog, centers[0]!.name);
    pick(dialog, [buildFile('a.dcm'), buildFile('b.dcm'), buildFile('not_dicom_text.dcm')]);
    submit(dialog);

    expect(await within(dialog).findByText('file uploaded 3 out of 3')).toBeTruthy();
    expect(within(dialog).getByText('2 images stored')).toBeTruthy();
    expect(within(dialog).getByText('1 file was refused:')).toBeTruthy();
    expect(within(dialog).getByText('not_dicom_text.dcm — not a DICOM file')).toBeTruthy();
    expect(within(dialog).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Study' })).toBeNull());
  });

  it("puts the server's validation message under its field and stays open", async () => {
    const { dialog, centers, api } = await openCreateStudy({
      handlers: {
        'POST /api/dicom-web/study/create-from-website': {
          status: 400,
          body: {
            ...errorBody(400, 'Patient age must look like 45Y, 6M or 10D'),
            additionalInfo: 'patientAge',
          },
        },
      },
    });
    await fillRequired(dialog, centers[0]!.name);
    submit(dialog);
    expect(await within(dialog).findByText('Patient age must look like 45Y, 6M or 10D')).toBeTruthy();
    expect(field(dialog, 'Patient age').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(api.calls('POST', '/api/dicom-web/study/create-from-website')).toHaveLength(1);
    expect(within(dialog).getByRole('button', { name: 'Submit' }).hasAttribute('disabled')).toBe(false);
  });

  it('keeps the created study when the upload fails, and uploads to it again', async () => {
    const { dialog, centers, api } = await openCreateStudy({
      handlers: { 'POST /api/dicom-web/study/create-from-website': { body: created } },
    });
    const xhr = fakeXhr((request, index) =>
      index === 0
        ? { status: 413, body: errorBody(413, 'Upload too large') }
        : { body: uploadAnswer(request, { reportStatusId: created.id }) },
    );
    await fillRequired(dialog, centers[0]!.name);
    pick(dialog, [buildFile('a.dcm')]);
    submit(dialog);

    expect(await within(dialog).findByText(/The upload stopped: Upload too large/)).toBeTruthy();
    expect(within(dialog).getByText(`Study ${created.id} created for Asha Verma.`)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try the upload again' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Study' })).toBeNull());
    expect(xhr.requests.map((r) => r.field('reportStatusId'))).toEqual(['41', '41']);
    expect(api.calls('POST', '/api/dicom-web/study/create-from-website')).toHaveLength(1);
  });
});

/** A real DICOM file of the repository's fixtures, as the browser would hand it over. */
function fixtureFile(fixture: string): File {
  let root = process.cwd();
  while (!existsSync(join(root, 'packages/dicom/test-fixtures'))) root = dirname(root);
  const bytes = readFileSync(join(root, 'packages/dicom/test-fixtures', fixture));
  return new File([new Uint8Array(bytes)], fixture.split('/').pop()!, { type: 'application/dicom' });
}
const LIVER_FILE = 'ct/study_liver/ct_liver_01.dcm';
const LIVER_UID = '1.2.392.200103.20080913.113635.0.2009.6.22.21.43.10.22941.1';

describe('Create Study reads the files (issue 21 §4)', SLOW, () => {
  it("fills the form from the header, shows both where the clerk chose otherwise, and sends the clerk's choice", async () => {
    const { dialog, api, centers } = await openCreateStudy({
      handlers: {
        'POST /api/dicom-web/study/create-from-website': { body: { ...created, joinedExisting: false } },
      },
    });
    const xhr = fakeXhr((request) => ({ body: uploadAnswer(request, { reportStatusId: created.id }) }));
    pick(dialog, [fixtureFile(LIVER_FILE)]);

    await waitFor(() => expect(field(dialog, 'Patient name').value).toBe('JANCT000'));
    expect(field(dialog, 'Patient age').value).toBe('060Y');
    expect(field(dialog, 'Patient id').value).toBe('99000');
    expect(select(dialog, 'Modality').textContent).toBe('CT');
    expect(select(dialog, 'Patient gender').textContent).toBe('Male');
    expect(within(dialog).getAllByText('From the files').length).toBeGreaterThanOrEqual(4);

    await choose(dialog, 'Modality', 'MR');
    expect(within(dialog).getByText('The files say CT; yours is kept')).toBeTruthy();
    type(dialog, 'Patient name', 'Asha Verma');
    expect(within(dialog).getByText('The files say JANCT000; yours is kept')).toBeTruthy();
    type(dialog, 'Study name', 'CT Abdomen');
    await choose(dialog, 'Center', centers[0]!.name);
    submit(dialog);

    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    expect(api.calls('POST', '/api/dicom-web/study/create-from-website')[0]?.json()).toMatchObject({
      patientName: 'Asha Verma',
      labModality: 'MR',
      patientAge: '060Y',
      patientSex: 'M',
      patientId: '99000',
      studyName: 'CT Abdomen',
      studyInstanceUID: LIVER_UID,
      joinExisting: true,
    });
    expect(xhr.requests[0]?.field('reportStatusId')).toBe(String(created.id));
  });

  it('tells the clerk when the files joined a study that was already there', async () => {
    const { dialog, centers } = await openCreateStudy({
      handlers: {
        'POST /api/dicom-web/study/create-from-website': { body: { ...created, joinedExisting: true } },
      },
    });
    fakeXhr((request) => ({ body: uploadAnswer(request, { reportStatusId: created.id }) }));
    pick(dialog, [fixtureFile(LIVER_FILE)]);
    await waitFor(() => expect(field(dialog, 'Patient name').value).toBe('JANCT000'));
    type(dialog, 'Study name', 'CT Abdomen');
    await choose(dialog, 'Center', centers[0]!.name);
    submit(dialog);
    expect(
      await screen.findByText(`The files joined the existing study ${created.id}: its details were kept.`),
    ).toBeTruthy();
  });

  it('several studies in the files: says they become N studies and uploads them to the center, one row each', async () => {
    const { dialog, api, centers } = await openCreateStudy();
    const xhr = fakeXhr((request) => ({ body: uploadAnswer(request, { reportStatusId: created.id }) }));
    pick(dialog, [fixtureFile(LIVER_FILE), fixtureFile('mr/mr_small_64x64_explicit_le.dcm')]);
    expect(
      await within(dialog).findByText(/The files hold 2 studies: they will become 2 studies/),
    ).toBeTruthy();
    const list = within(dialog).getByRole('list', { name: 'Studies in the files' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['JANCT000 · CT — 1 file', 'MR1 CompressedSamples · MR — 1 file']);
    await choose(dialog, 'Center', centers[1]!.name);
    submit(dialog);
    await waitFor(() => expect(xhr.requests).toHaveLength(1));
    expect(xhr.requests[0]?.field('centerId')).toBe(String(centers[1]!.id));
    expect(xhr.requests[0]?.field('reportStatusId')).toBeNull();
    expect(api.calls('POST', '/api/dicom-web/study/create-from-website')).toHaveLength(0);
  });
});
