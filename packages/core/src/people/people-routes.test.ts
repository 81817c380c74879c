import { describe, expect, it } from 'vitest';
import { defaultMenuContext } from '../identity/menus.js';
import { ROLES, type TRole } from '../identity/roles.js';
import { decideRoute } from '../identity/routes.js';

const signedIn = (role: TRole) => ({ email: 'someone@clinic.example', ctx: defaultMenuContext([role]) });

describe('the people screens (issue 21 §9) behind the route guard', () => {
  it.each(['/manage-centers', '/manage-users'])('%s opens for the group admin and the admin only', (path) => {
    for (const role of ROLES) {
      const decision = decideRoute({ pathname: path, user: signedIn(role) });
      expect(decision.action, role).toBe(
        role === 'ROLE_GROUP' || role === 'ROLE_ADMIN' ? 'allow' : 'redirect',
      );
    }
    expect(decideRoute({ pathname: path, user: null })).toEqual({ action: 'redirect', to: '/login-page' });
  });

  it('the set-password page needs no sign-in', () => {
    expect(decideRoute({ pathname: '/set-password', user: null })).toEqual({ action: 'allow' });
  });
});
