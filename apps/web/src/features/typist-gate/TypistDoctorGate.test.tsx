import { fireEvent, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { buildUser, sessionHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { useSession } from '../auth/session';
import {
  NO_DOCTOR_MAPPED,
  TYPIST_GATE_WORDS,
  TypistDoctorGate,
  type TTypistGatePlace,
} from './TypistDoctorGate';

/** The first render loads MUI: give the screen time on a busy machine. */
const SCREEN = { timeout: 20_000 };

function SignedIn({ children }: { children: ReactNode }) {
  const { data } = useSession();
  return data ? children : null;
}

function openGate(
  place: TTypistGatePlace,
  mapping: Record<string, { email: string; active: boolean }[]>,
  suggested: string | null = null,
) {
  const typist = buildUser(['ROLE_TYPIST'], { email: 'typist@demo.local' });
  fakeApi({ ...sessionHandlers(typist), 'GET /api/user/mapping': { body: mapping } });
  const onChoose = vi.fn();
  renderScreen(
    <SignedIn>
      <TypistDoctorGate place={place} suggested={suggested} onChoose={onChoose} />
    </SignedIn>,
  );
  return onChoose;
}

const DOCTORS = {
  ROLE_DOCTOR: [
    { email: 'b.doc@demo.local', active: true },
    { email: 'a.doc@demo.local', active: true },
    { email: 'gone.doc@demo.local', active: false },
  ],
};

describe('TypistDoctorGate (spec-core §6), one gate for the list and the editor', SCREEN, () => {
  it.each(['study-list', 'report-editor'] as const)(
    'offers the active doctors of the user map in the %s and hands on the chosen one',
    async (place) => {
      const onChoose = openGate(place, DOCTORS);
      const gate = await screen.findByTestId('typist-gate');
      expect(within(gate).getByText(TYPIST_GATE_WORDS[place].prompt)).toBeTruthy();
      const go = within(gate).getByRole('button', { name: TYPIST_GATE_WORDS[place].action });
      expect(go.hasAttribute('disabled')).toBe(true);
      fireEvent.mouseDown(within(gate).getByRole('combobox', { name: 'Doctor' }));
      const options = await screen.findAllByRole('option');
      expect(options.map((o) => o.textContent)).toEqual(['a.doc@demo.local', 'b.doc@demo.local']);
      fireEvent.click(screen.getByRole('option', { name: 'b.doc@demo.local' }));
      fireEvent.click(go);
      expect(onChoose).toHaveBeenCalledWith('b.doc@demo.local');
    },
  );

  it("offers the row's doctor first when it is one of the typist's", async () => {
    const onChoose = openGate('report-editor', DOCTORS, 'b.doc@demo.local');
    const go = await screen.findByRole('button', { name: 'Start typing' });
    expect(go.hasAttribute('disabled')).toBe(false);
    fireEvent.click(go);
    expect(onChoose).toHaveBeenCalledWith('b.doc@demo.local');
  });

  it('does not offer a suggested doctor who is not one of the typist’s', async () => {
    openGate('report-editor', DOCTORS, 'gone.doc@demo.local');
    const go = await screen.findByRole('button', { name: 'Start typing' });
    expect(go.hasAttribute('disabled')).toBe(true);
  });

  it.each(['study-list', 'report-editor'] as const)(
    'tells a typist with no doctor mapped whom to ask, and does not go on, in the %s',
    async (place) => {
      openGate(place, {});
      expect(await screen.findByText(NO_DOCTOR_MAPPED)).toBeTruthy();
      expect(screen.queryByRole('combobox', { name: 'Doctor' })).toBeNull();
      const go = screen.getByRole('button', { name: TYPIST_GATE_WORDS[place].action });
      expect(go.hasAttribute('disabled')).toBe(true);
    },
  );
});
