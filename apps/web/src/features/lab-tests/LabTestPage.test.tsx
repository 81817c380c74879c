import { LAB_TEST_CSV_MESSAGES, LAB_TEST_MESSAGES as M, type TLabTest, type TRole } from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { errorBody, fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { LAB_TEST_PAGE_LABELS as L, LabTestPage } from './LabTestPage';
import { TEST_DIALOG_LABELS as D } from './TestDialog';
import { UPLOAD_CSV_LABELS as U } from './UploadCsvDialog';
import { ATTRIBUTE_LABELS as A } from './TestAttributesDialog';

const SLOW = { timeout: 30_000 };
const WAIT = { timeout: 8_000 };

type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply | Promise<TFakeReply>);

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

const test1: TLabTest = {
  id: 7,
  testCode: 'CT01',
  testName: 'CT Head',
  testType: 'NORMAL',
  labModality: 'CT',
  department: 'RADIOLOGY',
  price: 1500,
  active: true,
  attributes: {},
  labTestsIds: [],
  createdAt: '2026-01-05T10:00:00.000Z',
  version: 3,
};
const pkg: TLabTest = {
  ...test1,
  id: 8,
  testCode: 'PK1',
  testName: 'Health pack',
  testType: 'PACKAGE',
  labTestsIds: [7],
  price: 2500.5,
};

function open(roles: TRole[], handlers: Record<string, THandler> = {}) {
  const api = fakeApi({
    ...sessionHandlers(buildUser(roles)),
    'POST /api/lab/test/search': { body: { content: [test1, pkg], totalElements: 2 } },
    'GET /api/lab/test/get-all': { body: [test1, pkg] },
    ...handlers,
  });
  renderScreen(
    <SignedIn>
      <LabTestPage />
    </SignedIn>,
    { path: '/lab/test' },
  );
  return api;
}

const searches = (api: ReturnType<typeof fakeApi>) =>
  api.calls('POST', '/api/lab/test/search').map((r) => r.json<Record<string, unknown>>());

async function choose(dialog: HTMLElement, label: string, option: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: new RegExp(`^${label}`) }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const type = (dialog: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(dialog).getByLabelText(new RegExp(`^${escape(label)}`)), { target: { value } });
/** The confirm dialog (the one with Confirm), after checking it asks `message`. */
const confirmDialog = async (message: string) => {
  const button = await screen.findByRole('button', { name: 'Confirm' }, WAIT);
  const dialog = button.closest('[role="dialog"]') as HTMLElement;
  expect(within(dialog).getByText(message)).toBeTruthy();
  return dialog;
};

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the test dashboard (spec-lab §2)', SLOW, () => {
  it('lists the tests with the columns; the tab and the modality filter search again', async () => {
    const api = open(['ROLE_LABS_SUPERVISOR']);
    const row = await screen.findByTestId('lab-test-8', {}, WAIT);
    for (const text of ['8', 'PK1', 'Health pack (package of 1)', 'RADIOLOGY', 'CT', '₹2500.50']) {
      expect(within(row).getByText(text)).toBeTruthy();
    }
    expect(within(row).getByRole('button', { name: `${L.editTest} PK1` })).toBeTruthy();
    expect(searches(api)[0]).toMatchObject({ tab: 'Active', labModalities: [], page: 0, size: 20 });

    fireEvent.click(screen.getByRole('tab', { name: 'Scheduled' }));
    await waitFor(() => expect(searches(api).at(-1)).toMatchObject({ tab: 'Scheduled' }), WAIT);
    expect(localStorage.getItem('labTestTab')).toBe('Scheduled');

    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2026-01-01' } });
    await waitFor(() => expect(searches(api).at(-1)?.startTime).toBeTruthy(), WAIT);
    expect(new Date(searches(api).at(-1)!.startTime as string).getDate()).toBe(1);

    fireEvent.mouseDown(screen.getByRole('combobox', { name: L.modalityFilter }));
    fireEvent.click(await screen.findByRole('option', { name: 'MR' }));
    await waitFor(() => expect(searches(api).at(-1)).toMatchObject({ labModalities: ['MR'], page: 0 }), WAIT);
  });

  it('the receptionist sees the list without Create Test, Upload Test CSV, Edit Test or a live toggle', async () => {
    open(['ROLE_LABS_RECEPTIONIST']);
    const row = await screen.findByTestId('lab-test-7', {}, WAIT);
    expect(screen.queryByRole('button', { name: L.create })).toBeNull();
    expect(screen.queryByRole('button', { name: L.upload })).toBeNull();
    expect(screen.queryByRole('button', { name: L.attributes })).toBeNull();
    expect(within(row).queryByRole('button', { name: /Edit Test/ })).toBeNull();
    expect((within(row).getByRole('switch', { name: 'Active CT01' }) as HTMLInputElement).disabled).toBe(
      true,
    );
  });
});

describe('Create/Edit Test (spec-lab §5)', SLOW, () => {
  it('names a missing field, asks before creating, shows Creating Test then Test Created', async () => {
    let release: () => void = () => undefined;
    const api = open(['ROLE_LABS_SUPERVISOR'], {
      'POST /api/lab/test': async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return { body: { ...test1, id: 9, testCode: 'MR5' } };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: L.create }, WAIT));
    const dialog = await screen.findByRole('dialog', { name: 'Create Test' });
    fireEvent.click(within(dialog).getByRole('button', { name: D.save }));
    expect(within(dialog).getByText(M.typeRequired)).toBeTruthy();

    // A new test cannot be switched off.
    fireEvent.click(within(dialog).getByRole('switch'));
    expect(within(dialog).getByText(M.cannotDeactivateOnCreate)).toBeTruthy();

    await choose(dialog, D.type, 'NORMAL');
    await choose(dialog, D.modality, 'MR');
    type(dialog, D.code, 'MR5');
    type(dialog, D.name, 'MRI Knee');
    type(dialog, D.price, '2200.5');
    fireEvent.click(within(dialog).getByRole('button', { name: D.save }));
    const ask = await confirmDialog(M.createConfirm);
    fireEvent.click(within(ask).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(M.creating, {}, WAIT)).toBeTruthy();
    release();
    expect(await screen.findByText(M.created, {}, WAIT)).toBeTruthy();
    expect(api.calls('POST', '/api/lab/test')[0]!.json()).toMatchObject({
      testType: 'NORMAL',
      labModality: 'MR',
      testCode: 'MR5',
      testName: 'MRI Knee',
      department: 'RADIOLOGY',
      price: 2200.5,
      active: true,
      labTestsIds: [],
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create Test' })).toBeNull());
  });

  it('edit: the type is fixed, the new-bill warning, Updating Test then Test Updated; the server refusal is shown', async () => {
    let reply: TFakeReply = { status: 409, body: errorBody(409, M.duplicateCode('PK2')) };
    const api = open(['ROLE_LABS_SUPERVISOR'], { 'PUT /api/lab/test': () => reply });
    fireEvent.click(await screen.findByRole('button', { name: `${L.editTest} PK1` }, WAIT));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Test' });
    expect(within(dialog).getByText(M.editWarning)).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('combobox', { name: new RegExp(`^${D.type}`) })
        .getAttribute('aria-disabled'),
    ).toBe('true');
    // The package's member picker holds CT01.
    expect(await within(dialog).findByText(/CT01 CT Head/, {}, WAIT)).toBeTruthy();
    type(dialog, D.code, 'PK2');
    fireEvent.click(within(dialog).getByRole('button', { name: D.save }));
    fireEvent.click(within(await confirmDialog(M.editWarning)).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(M.duplicateCode('PK2'), {}, WAIT)).toBeTruthy();

    reply = { body: { ...pkg, testCode: 'PK2', version: 4 } };
    fireEvent.click(within(dialog).getByRole('button', { name: D.save }));
    fireEvent.click(within(await confirmDialog(M.editWarning)).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(M.updated, {}, WAIT)).toBeTruthy();
    expect(api.calls('PUT', '/api/lab/test').at(-1)!.json()).toMatchObject({
      id: 8,
      version: 3,
      testType: 'PACKAGE',
      testCode: 'PK2',
      labTestsIds: [7],
    });
  });

  it('the active toggle says billing becomes impossible, then saves the test inactive', async () => {
    const api = open(['ROLE_LABS_SUPERVISOR'], {
      'PUT /api/lab/test': { body: { ...test1, active: false } },
    });
    const row = await screen.findByTestId('lab-test-7', {}, WAIT);
    fireEvent.click(within(row).getByRole('switch', { name: 'Active CT01' }));
    const ask = await confirmDialog(M.deactivateConfirm);
    fireEvent.click(within(ask).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(M.updated, {}, WAIT)).toBeTruthy();
    expect(api.calls('PUT', '/api/lab/test')[0]!.json()).toMatchObject({ id: 7, active: false, version: 3 });
  });
});

describe('Test Attributes (spec-lab §3, §9)', SLOW, () => {
  it('a new film size list starts at DX; ticking a default unticks the other; saved with the version read', async () => {
    const api = open(['ROLE_LABS_SUPERVISOR'], {
      'GET /api/lab/test-attributes': { body: { data: [], version: 4 } },
      'PUT /api/lab/test-attributes': (r) => ({ body: { ...r.json<object>(), version: 5 } }),
    });
    fireEvent.click(await screen.findByRole('button', { name: A.title }, WAIT));
    const dialog = await screen.findByRole('dialog', { name: A.title });
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: A.addFilm }).hasAttribute('disabled')).toBe(false),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: A.addFilm }));
    const list = within(dialog).getByTestId('attribute-definition-0');
    expect(within(list).getByRole('combobox', { name: A.modality }).textContent).toBe('DX');
    fireEvent.click(within(list).getByRole('button', { name: A.addChoice }));
    const sizes = within(list).getAllByLabelText(A.size);
    const prices = within(list).getAllByLabelText(A.price);
    fireEvent.change(sizes[0]!, { target: { value: '10x12' } });
    fireEvent.change(prices[0]!, { target: { value: '100' } });
    fireEvent.change(sizes[1]!, { target: { value: '14x17' } });
    fireEvent.change(prices[1]!, { target: { value: '150.5' } });
    fireEvent.click(within(list).getAllByRole('checkbox', { name: A.default })[1]!);
    fireEvent.click(within(dialog).getByRole('button', { name: A.save }));
    expect(await screen.findByText('Setting updated successfully', {}, WAIT)).toBeTruthy();
    expect(api.calls('PUT', '/api/lab/test-attributes')[0]!.json()).toEqual({
      version: 4,
      data: [
        {
          type: 'MODALITY_BASED_FILM_SIZE',
          modality: 'DX',
          filmSize: [
            { size: '10x12', price: 100, default: false },
            { size: '14x17', price: 150.5, default: true },
          ],
        },
      ],
    });
  });
});

describe('Upload Test CSV (spec-lab §5, §9)', SLOW, () => {
  const openUpload = async (handlers: Record<string, THandler> = {}) => {
    const api = open(['ROLE_LABS_SUPERVISOR'], handlers);
    fireEvent.click(await screen.findByRole('button', { name: L.upload }, WAIT));
    return { api, dialog: await screen.findByRole('dialog', { name: U.title }) };
  };
  const pick = (dialog: HTMLElement, text: string) =>
    fireEvent.change(within(dialog).getByLabelText(U.file), {
      target: { files: [new File([text], 'tests.csv', { type: 'text/csv' })] },
    });

  it('asks for a file; offers the sample', async () => {
    const { dialog } = await openUpload();
    const sample = within(dialog).getByRole('link', { name: U.sample });
    expect(decodeURIComponent(sample.getAttribute('href')!)).toContain(
      'Test Code,Test Name,Price,Type,Modality',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: U.upload }));
    expect(within(dialog).getByText(LAB_TEST_CSV_MESSAGES.noFile)).toBeTruthy();
  });

  it('skips the header, sends the rows one at a time 300 ms apart: Saved, Failed with the reason', async () => {
    const sentAt: number[] = [];
    const { api, dialog } = await openUpload({
      'POST /api/lab/test': (request) => {
        sentAt.push(Date.now());
        const body = request.json<{ testCode: string }>();
        return body.testCode === 'DUP'
          ? { status: 409, body: errorBody(409, M.duplicateCode('DUP')) }
          : { body: { ...test1, testCode: body.testCode } };
      },
    });
    pick(
      dialog,
      'code,name,price,type,modality\nA1,CT Head,100,NORMAL,CT\nB2,Bad price,abc,NORMAL,CT\nDUP,Dup,50,NORMAL,DX\n',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: U.upload }));
    const rows = await within(dialog).findAllByRole('row', {}, WAIT);
    expect(rows).toHaveLength(4);
    expect(within(dialog).getAllByText('Pending').length).toBeGreaterThan(0);
    await waitFor(
      () => expect(within(within(dialog).getByTestId('csv-row-4')).queryByText('Pending')).toBeNull(),
      WAIT,
    );
    expect(within(within(dialog).getByTestId('csv-row-2')).getByText('Saved')).toBeTruthy();
    const bad = within(within(dialog).getByTestId('csv-row-3'));
    expect(bad.getByText('Failed')).toBeTruthy();
    expect(bad.getByText(LAB_TEST_CSV_MESSAGES.price)).toBeTruthy();
    const dup = within(within(dialog).getByTestId('csv-row-4'));
    expect(dup.getByText('Failed')).toBeTruthy();
    expect(dup.getByText(M.duplicateCode('DUP'))).toBeTruthy();

    expect(api.calls('POST', '/api/lab/test').map((r) => r.json<{ testCode: string }>().testCode)).toEqual([
      'A1',
      'DUP',
    ]);
    expect(api.calls('POST', '/api/lab/test')[0]!.json()).toMatchObject({
      department: 'RADIOLOGY',
      testType: 'NORMAL',
    });
    // Two intervals lie between the first and the third row.
    expect(sentAt[1]! - sentAt[0]!).toBeGreaterThanOrEqual(550);
  });

  it("an unreadable file: 'Error parsing CSV'", async () => {
    const { api, dialog } = await openUpload();
    pick(dialog, 'code,name\n"A1,unterminated\n');
    fireEvent.click(within(dialog).getByRole('button', { name: U.upload }));
    expect(await screen.findByText(LAB_TEST_CSV_MESSAGES.parseError, {}, WAIT)).toBeTruthy();
    expect(api.calls('POST', '/api/lab/test')).toHaveLength(0);
  });
});
