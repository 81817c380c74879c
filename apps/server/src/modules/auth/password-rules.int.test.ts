import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { PASSWORD_MIN_LENGTH } from '@radflow/core';
import { loginEvents } from '../../db/schema.js';
import { type TestApp, TestClient, createTestApp, signIn } from '../../../test/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function signedIn() {
  const { user, browser } = await signIn(t, { identifier: 'Asha Verma' });
  const change = (newPassword: string, currentPassword = user.password) =>
    browser.post('/api/user-create/update-password', { currentPassword, newPassword });
  return { user, browser, change };
}

describe('a new password (NIST 800-63B)', () => {
  it(`is at least ${PASSWORD_MIN_LENGTH} characters, spaces around it not counted`, async () => {
    expect(PASSWORD_MIN_LENGTH).toBeGreaterThanOrEqual(8);
    const { change } = await signedIn();
    for (const weak of ['     ', 'abc12', ' '.repeat(PASSWORD_MIN_LENGTH), '  xk7#q  ']) {
      const res = await change(weak);
      expect(res.statusCode, JSON.stringify(weak)).toBe(400);
      expect(res.json().errorDescription).toBe(
        `newPassword must be at least ${PASSWORD_MIN_LENGTH} characters`,
      );
    }
  });

  it('is not the e-mail address or the name, nor made of them', async () => {
    const { user, change } = await signedIn();
    const local = user.email.split('@')[0]!;
    for (const personal of [
      user.email,
      user.email.toUpperCase(),
      `${local}2024`,
      'asha verma',
      'AshaVerma!',
    ]) {
      const res = await change(personal);
      expect(res.statusCode, personal).toBe(400);
      expect(res.json().errorDescription).toBe('The password must not contain your e-mail address or name');
    }
  });

  it('is not a common password', async () => {
    const { change } = await signedIn();
    for (const common of ['password123', 'Iloveyou2', 'qwertyuiop', 'Sunshine2024!', 'aaaaaaaaaa']) {
      const res = await change(common);
      expect(res.statusCode, common).toBe(400);
      expect(res.json().errorDescription).toBe(
        'This password is too common or too easy to guess; choose another',
      );
    }
  });

  it("a long passphrase of the user's own choosing is accepted, and signs in", async () => {
    const { user, change } = await signedIn();
    expect((await change('correct horse battery staple')).statusCode).toBe(200);
    expect((await new TestClient(t.app).login(user.email, 'correct horse battery staple')).statusCode).toBe(
      200,
    );
    const [changed] = await t.db
      .select()
      .from(loginEvents)
      .where(and(eq(loginEvents.userId, user.id), eq(loginEvents.eventType, 'PASSWORD_CHANGED')));
    expect(changed).toBeDefined();
  });
});
