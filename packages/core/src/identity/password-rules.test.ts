import { describe, expect, it } from 'vitest';
import {
  MESSAGE_PASSWORD_COMMON,
  MESSAGE_PASSWORD_PERSONAL,
  MESSAGE_PASSWORD_TOO_SHORT,
  passwordLength,
  passwordProblem,
} from './password-rules.js';

const owner = { email: 'ravi.kumar@clinic.example', identifier: 'Ravi Kumar' };

describe('passwordProblem', () => {
  it('counts characters as a person does, without the spaces around', () => {
    expect(passwordLength('  ab  ')).toBe(2);
    expect(passwordLength('😀😀😀😀😀😀😀😀')).toBe(8);
    expect(passwordProblem('     ', owner)).toBe(MESSAGE_PASSWORD_TOO_SHORT);
    expect(passwordProblem('😀🌙🌟😀🌙🌟😀🌙', owner)).toBeNull();
  });

  it("refuses the owner's e-mail, its local part, their name, and the product's name", () => {
    for (const p of ['ravi.kumar@clinic.example', 'RaviKumar99', 'ravi kumar!', 'radflow2024']) {
      expect(passwordProblem(p, owner), p).toBe(MESSAGE_PASSWORD_PERSONAL);
    }
  });

  it('refuses fewer than 3 different characters, accepts a passphrase', () => {
    expect(passwordProblem('abababab', owner)).toBe(MESSAGE_PASSWORD_COMMON);
    expect(passwordProblem('tulip lantern orbit', owner)).toBeNull();
  });
});
