import type { TRole, TUserPreferences } from '@radflow/core';
import { fireEvent, screen, within } from '@testing-library/react';
import { useState, type ComponentType, type ReactNode } from 'react';
import { vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../../test/builders';
import { fakeApi, type TFakeReply, type TRecordedRequest } from '../../../test/fake-api';
import { renderScreen } from '../../../test/render';
import { useSession } from '../../auth/session';

/**
 * MUI dialogs in jsdom take seconds per story on this busy 2-core machine (several suites run at
 * once): more than vitest's default 5 s.
 */
export const SLOW = { timeout: 30_000 };

type THandler = TFakeReply | ((request: TRecordedRequest) => TFakeReply | Promise<TFakeReply>);

/** What the settings page does: the dialog renders once the session is loaded and unmounts on close. */
function SignedIn({ children }: { children: (onClose: () => void) => ReactNode }) {
  const { data } = useSession();
  const [open, setOpen] = useState(true);
  if (!data || !open) return null;
  return children(() => setOpen(false));
}

/**
 * Signs in with `roles` and `preferences`, opens `Dialog` and answers the calls in `handlers`. The
 * fake network records JSON bodies only, so multipart bodies are kept in `forms` (path, FormData).
 */
export async function openSettingDialog(
  Dialog: ComponentType<{ onClose: () => void }>,
  {
    roles = ['ROLE_CENTER'],
    preferences,
    handlers = {},
    title,
  }: { roles?: TRole[]; preferences?: TUserPreferences; handlers?: Record<string, THandler>; title: string },
) {
  const api = fakeApi({ ...sessionHandlers(buildUser(roles, { centerId: 7 }), preferences), ...handlers });
  const forms: { path: string; form: FormData }[] = [];
  const network = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.body instanceof FormData) {
      forms.push({ path: new URL(String(input), 'http://localhost').pathname, form: init.body });
    }
    return network(input, init);
  });
  let closed = false;
  const view = renderScreen(
    <SignedIn>
      {(onClose) => (
        <Dialog
          onClose={() => {
            closed = true;
            onClose();
          }}
        />
      )}
    </SignedIn>,
  );
  const dialog = await screen.findByRole('dialog', { name: title });
  return { api, forms, dialog, isClosed: () => closed, ...view };
}

export const typeInto = (dialog: HTMLElement, label: string | RegExp, value: string) =>
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });

export const click = (dialog: HTMLElement, name: string | RegExp) =>
  fireEvent.click(within(dialog).getByRole('button', { name }));

/** The session's snackbar text (success 'status', failure 'alert'). */
export async function snackbarText(role: 'status' | 'alert'): Promise<string> {
  return (await screen.findByRole(role)).textContent ?? '';
}

/** A tiny file whose first bytes are those of a png (or jpeg). */
export function imageFile(name: string, kind: 'png' | 'jpeg' = 'png'): File {
  const bytes =
    kind === 'png'
      ? new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])
      : new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]);
  return new File([bytes], name, { type: kind === 'png' ? 'image/png' : 'image/jpeg' });
}
