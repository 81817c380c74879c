import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NO_SUPPORT_CONTACT_TEXT } from '../../components/SupportContact';
import { buildUser, sessionHandlers, signedOutHandlers } from '../../test/builders';
import { fakeApi } from '../../test/fake-api';
import { renderScreen } from '../../test/render';
import { InfoPage } from './InfoPage';

const SLOW = { timeout: 20_000 };
configure({ asyncUtilTimeout: 10_000 });

const openPricing = () =>
  renderScreen(<InfoPage />, { path: '/info-page?page=pricing', route: '/info-page' });

describe('InfoPage pricing', () => {
  it("ends with the deployment's support contact for a signed-in user", SLOW, async () => {
    const support = { phone: '+91 80 4000 1234', email: 'help@radflow.example' };
    fakeApi(sessionHandlers(buildUser(['ROLE_DOCTOR'], { support })));
    openPricing();
    expect(await screen.findByRole('heading', { level: 1, name: 'Pricing' })).toBeTruthy();
    const contact = screen.getByRole('region', { name: 'Who to contact' });
    const phone = await within(contact).findByRole('link', { name: '+91 80 4000 1234' });
    expect(phone.getAttribute('href')).toBe('tel:+918040001234');
    expect(within(contact).getByRole('link', { name: 'help@radflow.example' })).toBeTruthy();
  });

  it(
    'sends the reader to their group administrator when no support contact is configured',
    SLOW,
    async () => {
      fakeApi(sessionHandlers(buildUser(['ROLE_TYPIST'])));
      openPricing();
      const contact = await screen.findByRole('region', { name: 'Who to contact' });
      expect(await within(contact).findByText(NO_SUPPORT_CONTACT_TEXT)).toBeTruthy();
      expect(within(contact).queryByRole('link')).toBeNull();
    },
  );

  it('opens signed out too (a public page), naming the group administrator', SLOW, async () => {
    fakeApi(signedOutHandlers);
    openPricing();
    const contact = await screen.findByRole('region', { name: 'Who to contact' });
    expect(await within(contact).findByText(NO_SUPPORT_CONTACT_TEXT)).toBeTruthy();
  });

  it('shows no contact section on the other pages', SLOW, async () => {
    fakeApi(signedOutHandlers);
    renderScreen(<InfoPage />, { path: '/info-page?page=terms', route: '/info-page' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Service' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Who to contact' })).toBeNull();
  });
});
