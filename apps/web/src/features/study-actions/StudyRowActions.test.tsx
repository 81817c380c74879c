import {
  WORKLIST_MESSAGES,
  defaultPreferences,
  type TRole,
  type TUserPreferences,
  type TStudyListKind,
  type TStudyListRow,
} from '@radflow/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi, type TFakeReply, type TRecordedRequest } from '../../test/fake-api';
import { renderRoutes, renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import { MultiAssignButton } from './MultiAssignButton';
import { StudyRowActions } from './StudyRowActions';
import { buildStudyRow } from '../../test/study-row';

// MUI menus and dialogs in jsdom are slow; on a busy machine these stories need more than 5 s.
const SLOW = { timeout: 20_000 };

type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply | Promise<TFakeReply>);

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

/** The center of the signed-in user and, unless a test says otherwise, of the row. */
const OWN_CENTER_ID = 1;

async function renderRow({
  roles,
  row = buildStudyRow(),
  listKind = 'center',
  handlers = {},
  mapping = {},
  switches = {},
}: {
  roles: TRole[];
  row?: TStudyListRow;
  listKind?: TStudyListKind;
  handlers?: Record<string, THandler>;
  mapping?: Record<string, { email: string; active: boolean }[]>;
  switches?: Partial<TUserPreferences['GROUP_SWITCHES']>;
}) {
  const preferences = defaultPreferences();
  Object.assign(preferences.GROUP_SWITCHES, switches);
  const api = fakeApi({
    // Signed in at the row's center: center users act on their own center's studies only.
    ...sessionHandlers(buildUser(roles, { centerId: OWN_CENTER_ID }), preferences),
    'GET /api/user/mapping': { body: mapping },
    ...handlers,
  });
  const onChanged = vi.fn();
  const view = renderRoutes(
    [
      {
        path: '/',
        element: (
          <SignedIn>
            <StudyRowActions
              row={{ centerId: OWN_CENTER_ID, ...row }}
              listKind={listKind}
              onChanged={onChanged}
            />
          </SignedIn>
        ),
      },
      { path: '/viewer/:studyInstanceUids/:id', element: <span>viewer</span> },
    ],
    '/',
  );
  await screen.findByRole('button', { name: 'View images' });
  return { ...view, api, onChanged, row };
}

/** A lazily loaded dialog: its chunk is compiled on first open, which takes a while in the test runner. */
const findDialog = (name: string) => screen.findByRole('dialog', { name }, { timeout: 10_000 });

const openMenuItem = async (name: string) => {
  fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
  fireEvent.click(await screen.findByRole('menuitem', { name }));
};

const confirmDialog = async (text: string) => {
  const dialog = await findDialog('Please confirm');
  expect(within(dialog).getByText(text)).toBeTruthy();
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
};

describe('StudyRowActions', () => {
  it('marks a study urgent after the confirmation, says so and refreshes the list', SLOW, async () => {
    const row = buildStudyRow();
    const { api, onChanged } = await renderRow({
      roles: ['ROLE_CENTER'],
      row,
      handlers: { [`POST /api/report-status/urgent/${row.id}`]: { body: { ...row, urgent: true } } },
    });
    await openMenuItem('Mark urgent');
    await confirmDialog('Are you sure you want to change the urgent mark of this study?');
    expect(await screen.findByText('Study marked urgent')).toBeTruthy();
    expect(api.calls('POST', `/api/report-status/urgent/${row.id}`)).toHaveLength(1);
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it('does nothing when the confirmation is cancelled', SLOW, async () => {
    const row = buildStudyRow();
    const { api, onChanged } = await renderRow({ roles: ['ROLE_CENTER'], row });
    await openMenuItem('Delete study');
    const dialog = await findDialog('Please confirm');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls('POST', `/api/report-status/mark-delete/${row.id}`)).toHaveLength(0);
    expect(onChanged).not.toHaveBeenCalled();
  });

  it("offers a group admin 'Delete study' only under the hide-deleted setting", SLOW, async () => {
    for (const hideDeletedStudies of [false, true]) {
      const view = await renderRow({
        roles: ['ROLE_ADMIN'],
        listKind: 'admin',
        switches: { hideDeletedStudies },
      });
      fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
      await screen.findAllByRole('menuitem');
      expect(!!screen.queryByRole('menuitem', { name: 'Delete study' }), `switch ${hideDeletedStudies}`).toBe(
        hideDeletedStudies,
      );
      view.unmount();
    }
  });

  it('offers no state action the server would refuse: a doctor on a CREATED study', SLOW, async () => {
    await renderRow({ roles: ['ROLE_DOCTOR'], listKind: 'doctor' });
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    await screen.findByRole('menu');
    for (const name of ['Mark urgent', 'Delete study', 'Split study', 'Assign doctor', 'Unlock', 'Rework']) {
      expect(screen.queryByRole('menuitem', { name })).toBeNull();
    }
  });

  it('refuses to open the images of a study that is not uploaded', SLOW, async () => {
    await renderRow({ roles: ['ROLE_CENTER'], row: buildStudyRow({ count: { series: 0, images: 0 } }) });
    fireEvent.click(screen.getByRole('button', { name: 'View images' }));
    expect(await screen.findByText('Study not uploaded, please contact center')).toBeTruthy();
  });

  it('opens the viewer of an uploaded study', SLOW, async () => {
    const row = buildStudyRow({ id: 77, instanceId: '1.2.3' });
    const { router } = await renderRow({ roles: ['ROLE_DOCTOR'], row, listKind: 'doctor' });
    fireEvent.click(screen.getByRole('button', { name: 'View images' }));
    expect(await screen.findByText('viewer')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/viewer/1.2.3/77');
    expect(router.state.location.search).toBe('?v=2&d=1');
  });

  it('opens a referring doctor the light viewer (no d=1, spec-core §2 Viewer entry)', SLOW, async () => {
    const row = buildStudyRow({ id: 77, instanceId: '1.2.3' });
    const { router } = await renderRow({ roles: ['ROLE_REFERRING_DOCTOR'], row, listKind: 'doctor' });
    fireEvent.click(screen.getByRole('button', { name: 'View images' }));
    expect(await screen.findByText('viewer')).toBeTruthy();
    expect(router.state.location.search).toBe('?v=2');
  });

  it('shows a deleted row its report button disabled and no menu', SLOW, async () => {
    await renderRow({ roles: ['ROLE_CENTER'], row: buildStudyRow({ status: 'DELETED' }) });
    expect((screen.getByRole('button', { name: 'Open report' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'More actions' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'View images' }));
    expect(await screen.findByText(WORKLIST_MESSAGES.studyDeleted)).toBeTruthy();
  });

  it('shows the reworked alert on a reworked row only', SLOW, async () => {
    await renderRow({ roles: ['ROLE_CENTER'], row: buildStudyRow({ reworked: true }) });
    expect(screen.getByRole('img', { name: WORKLIST_MESSAGES.reworked })).toBeTruthy();
    expect(screen.queryByRole('img', { name: WORKLIST_MESSAGES.reSignedOff })).toBeNull();
  });

  it('asks the center to re-print a report signed off again after printing', SLOW, async () => {
    await renderRow({
      roles: ['ROLE_CENTER'],
      row: buildStudyRow({ status: 'SIGNED_OFF', signedOffAfterPrint: true }),
    });
    expect(screen.getByRole('img', { name: WORKLIST_MESSAGES.reSignedOff })).toBeTruthy();
    expect(screen.queryByRole('img', { name: WORKLIST_MESSAGES.reworked })).toBeNull();
    expect(screen.queryByRole('img', { name: WORKLIST_MESSAGES.newImagesAfterSignOff })).toBeNull();
  });

  it(
    "flags a signed-off row whose images arrived after the sign-off: 'New images after sign-off'",
    SLOW,
    async () => {
      await renderRow({
        roles: ['ROLE_ADMIN'],
        row: buildStudyRow({ status: 'SIGNED_OFF', newImagesAfterSignOffAt: '2026-11-26T10:00:00.000Z' }),
      });
      expect(screen.getByRole('img', { name: WORKLIST_MESSAGES.newImagesAfterSignOff })).toBeTruthy();
    },
  );

  it('assigns a doctor picked from the user map', SLOW, async () => {
    const row = buildStudyRow();
    const { api, onChanged } = await renderRow({
      roles: ['ROLE_ADMIN'],
      row,
      listKind: 'admin',
      mapping: { ROLE_DOCTOR: [{ email: 'doctor@demo.local', active: true }] },
      handlers: { 'POST /api/report-status/assign': { body: row } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Assign doctor' }));
    const dialog = await findDialog('Assign doctor');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Doctor' }));
    fireEvent.click(await screen.findByRole('option', { name: 'doctor@demo.local' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('Study assigned to doctor@demo.local')).toBeTruthy();
    expect(api.calls('POST', '/api/report-status/assign')[0]?.json()).toEqual({
      reportId: row.id,
      assignedTo: 'doctor@demo.local',
    });
    expect(onChanged).toHaveBeenCalled();
  });

  it("says 'No result found' when the doctor search matches nobody", SLOW, async () => {
    await renderRow({
      roles: ['ROLE_ADMIN'],
      listKind: 'admin',
      mapping: { ROLE_DOCTOR: [{ email: 'doctor@demo.local', active: true }] },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Assign doctor' }));
    const dialog = await findDialog('Assign doctor');
    const input = within(dialog).getByRole('combobox', { name: 'Doctor' });
    input.focus();
    fireEvent.change(input, { target: { value: 'zzz' } });
    expect(await screen.findByText('No result found')).toBeTruthy();
  });
});

describe('Edit details', () => {
  it("reads 'Send for reporting' for a center on a CREATED study and sends the form", SLOW, async () => {
    const row = buildStudyRow();
    const { api, onChanged } = await renderRow({
      roles: ['ROLE_CENTER'],
      row,
      handlers: {
        'GET /api/user/study-type': { body: [] },
        [`POST /api/report-status/update-details/${row.id}`]: { body: row },
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Edit details' }));
    const dialog = await findDialog(`Edit study details · ${row.id}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send for reporting' }));
    expect(await screen.findByText('History updated')).toBeTruthy();
    const sent = api
      .calls('POST', `/api/report-status/update-details/${row.id}`)[0]
      ?.json<{ patientName: string }>();
    expect(sent?.patientName).toBe(row.patientName);
    expect(onChanged).toHaveBeenCalled();
  });

  it('shows the field messages and sends nothing while required fields are empty', SLOW, async () => {
    const row = buildStudyRow({ patientName: '' });
    const { api } = await renderRow({
      roles: ['ROLE_ADMIN'],
      row,
      listKind: 'admin',
      handlers: { 'GET /api/user/study-type': { body: [] } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Edit details' }));
    const dialog = await findDialog(`Edit study details · ${row.id}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Patient name is required')).toBeTruthy();
    expect(api.calls('POST', `/api/report-status/update-details/${row.id}`)).toHaveLength(0);
  });
});

describe('Tags', () => {
  it('assigns nothing while empty, then adds a typed tag after the confirmation', SLOW, async () => {
    const row = buildStudyRow();
    const { api } = await renderRow({
      roles: ['ROLE_CENTER'],
      row,
      handlers: {
        'GET /api/report-tag/choices': { body: { tags: [] } },
        'POST /api/report-tag/add-tags': { body: { id: 31 } },
      },
    });
    await openMenuItem('Tags');
    const dialog = await findDialog(`Tags · ${row.id}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign tag' }));
    expect(screen.queryByRole('dialog', { name: 'Please confirm' })).toBeNull();
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Tag' }), { target: { value: 'covid' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign tag' }));
    await confirmDialog('Are you sure you want to add this tag?');
    expect(await within(dialog).findByText('covid')).toBeTruthy();
    expect(api.calls('POST', '/api/report-tag/add-tags')[0]?.json()).toEqual({
      reportStatusId: row.id,
      tag: 'covid',
      globalTag: false,
    });
  });

  it('deletes a tag with the spec confirmation', SLOW, async () => {
    const row = buildStudyRow();
    row.tags = [{ id: 5, tag: 'lung', globalTag: true, createdBy: 'x@demo.local', reportStatusId: row.id }];
    const { api } = await renderRow({
      roles: ['ROLE_ADMIN'],
      row,
      handlers: {
        'GET /api/report-tag/choices': { body: { tags: [] } },
        'DELETE /api/report-tag/delete': { body: null },
      },
    });
    await openMenuItem('Tags');
    const dialog = await findDialog(`Tags · ${row.id}`);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete tag lung' }));
    await confirmDialog('Are you sure you want to delete this tag?');
    await waitFor(() => expect(within(dialog).queryByText('lung')).toBeNull());
    expect(api.calls('DELETE', '/api/report-tag/delete')[0]?.json()).toEqual({ id: 5 });
  });
});

describe('MultiAssignButton', () => {
  function renderButton(roles: TRole[], selectedIds: number[]) {
    const api = fakeApi({
      ...sessionHandlers(buildUser(roles)),
      'GET /api/user/mapping': {
        body: { ROLE_DOCTOR: [{ email: 'doctor@demo.local', active: true }] },
      },
      'POST /api/report-status/assign-multi': {
        body: { reportIds: selectedIds, assignedTo: 'doctor@demo.local' },
      },
    });
    const onDone = vi.fn();
    const view = renderScreen(
      <SignedIn>
        <span>list</span>
        <MultiAssignButton selectedIds={selectedIds} onDone={onDone} />
      </SignedIn>,
    );
    return { ...view, api, onDone };
  }

  it('is not there for an admin', SLOW, async () => {
    renderButton(['ROLE_ADMIN'], [1, 2]);
    await screen.findByText('list');
    expect(screen.queryByRole('button', { name: 'Assign selected studies' })).toBeNull();
  });

  it('assigns the selected studies to one doctor for an assignor', SLOW, async () => {
    const { api, onDone } = renderButton(['ROLE_ASSIGNOR'], [1, 2]);
    fireEvent.click(await screen.findByRole('button', { name: 'Assign selected studies' }));
    const dialog = await findDialog('Assign doctor');
    fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: 'Doctor' }));
    fireEvent.click(await screen.findByRole('option', { name: 'doctor@demo.local' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(api.calls('POST', '/api/report-status/assign-multi')[0]?.json()).toEqual({
      reportId: [1, 2],
      assignedTo: 'doctor@demo.local',
    });
  });
});
