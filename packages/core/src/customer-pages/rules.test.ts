import { describe, expect, it } from 'vitest';
import { menuForUser, defaultMenuContext } from '../identity/menus.js';
import { canManageCenterPatients, customerMustPayFirst, isCustomerSession } from './rules.js';

describe('customerMustPayFirst: per study, customers only', () => {
  it.each([
    [['ROLE_CUSTOMER'], 'PENDING', true],
    [['ROLE_CUSTOMER', 'ROLE_VIEWER'], 'PENDING', true],
    [['ROLE_CUSTOMER'], 'PAID', false],
    [['ROLE_CUSTOMER'], 'NOT_REQUIRED', false],
    // Staff who also hold the customer role read as staff.
    [['ROLE_CUSTOMER', 'ROLE_CENTER'], 'PENDING', false],
    [['ROLE_CENTER'], 'PENDING', false],
    [['ROLE_VIEWER'], 'PENDING', false],
  ] as const)('%j with %s → %s', (roles, status, expected) => {
    expect(customerMustPayFirst(roles, status)).toBe(expected);
  });

  it('a customer session holds ROLE_CUSTOMER and no staff role', () => {
    expect(isCustomerSession([])).toBe(false);
    expect(isCustomerSession(['ROLE_DOCTOR', 'ROLE_CUSTOMER'])).toBe(false);
  });
});

describe('canManageCenterPatients follows the menu item', () => {
  it.each([
    [['ROLE_CENTER_CUSTOMER'], false, true],
    [['ROLE_CENTER_CUSTOMER'], true, false],
    [['ROLE_CENTER'], false, false],
    [['ROLE_CUSTOMER'], false, false],
  ] as const)('%j, doNotSendWhatsappMessage %s → %s', (roles, off, expected) => {
    expect(canManageCenterPatients({ roles, flags: { doNotSendWhatsappMessage: off } })).toBe(expected);
    const menu = menuForUser({ ...defaultMenuContext(roles), doNotSendWhatsappMessage: off });
    expect(menu.some((item) => item.path === '/manage-patient')).toBe(expected);
  });
});
