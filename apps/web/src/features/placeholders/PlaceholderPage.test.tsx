import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PlaceholderPage } from './PlaceholderPage';
import { PLACEHOLDER_PATHS } from './placeholder-paths';
import { PLACEHOLDER_SCREENS } from './placeholder-screens';

describe('PlaceholderPage', () => {
  it('says, for its path, what the screen will hold and which issue brings it', () => {
    render(<PlaceholderPage path="/manage-tele-pricing" />);
    expect(screen.getByRole('heading', { name: 'Manage Tele Pricing' }).textContent).toBe(
      'Manage Tele Pricing',
    );
    expect(screen.getByTestId('placeholder-note').textContent).toBe(
      'Tele-radiology pricing — arrives with a later issue (billing and invoicing).',
    );
  });

  it('has a screen for every routed path, and no other', () => {
    expect(Object.keys(PLACEHOLDER_SCREENS).sort()).toEqual([...PLACEHOLDER_PATHS].sort());
  });
});
