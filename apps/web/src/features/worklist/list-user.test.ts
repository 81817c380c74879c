import { describe, expect, it } from 'vitest';
import { doctorsForTypist, hasDoctorRoleInUserMap, keepContextDoctor, readContextDoctor } from './list-user';

const doctor = (email: string, active = true) => ({ email, active });

describe('the user map and the study list', () => {
  it('gives a doctor the admin list only when the map names another doctor', () => {
    expect(hasDoctorRoleInUserMap({ ROLE_DOCTOR: [doctor('me@demo.local')] }, 'Me@demo.local')).toBe(false);
    expect(hasDoctorRoleInUserMap({}, 'me@demo.local')).toBe(false);
    expect(
      hasDoctorRoleInUserMap(
        { ROLE_DOCTOR: [doctor('me@demo.local'), doctor('b@demo.local')] },
        'me@demo.local',
      ),
    ).toBe(true);
  });
});

describe('typist doctor gate (spec-core §6)', () => {
  const mapping = {
    ROLE_DOCTOR: [doctor('a@demo.local'), doctor('gone@demo.local', false)],
    ROLE_CENTER: [doctor('c@demo.local')],
  };

  it('offers the active doctor-role users of the map', () => {
    expect(doctorsForTypist(mapping)).toEqual(['a@demo.local']);
  });

  it('keeps the choice per typist while that doctor is still offered', () => {
    const store = window.localStorage;
    keepContextDoctor(store, 'typist@demo.local', 'A@demo.local');
    expect(readContextDoctor(store, 'typist@demo.local', ['a@demo.local'])).toBe('a@demo.local');
    expect(readContextDoctor(store, 'typist@demo.local', ['b@demo.local'])).toBeNull();
    expect(readContextDoctor(store, 'other@demo.local', ['a@demo.local'])).toBeNull();
    keepContextDoctor(store, 'typist@demo.local', null);
    expect(readContextDoctor(store, 'typist@demo.local', ['a@demo.local'])).toBeNull();
  });
});
