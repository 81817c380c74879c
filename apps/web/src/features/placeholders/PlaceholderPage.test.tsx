import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PlaceholderPage } from './PlaceholderPage';
import { PLACEHOLDER_PATHS } from './placeholder-paths';
import { PLACEHOLDER_SCREENS } from './placeholder-screens';

describe('PlaceholderPage', () => {
  it('says, for its path, what the screen will hold and which issue brings it', () => {
    render(<PlaceholderPage path="/pacs-router" />);
    expect(screen.getByRole('heading', { name: 'PACS router' }).textContent).toBe('PACS router');
    expect(screen.getByTestId('placeholder-note').textContent).toBe(
      'PACS router — arrives with a later issue (local router).',
    );
  });

  it('has a screen for every routed path, and no other', () => {
    expect(Object.keys(PLACEHOLDER_SCREENS).sort()).toEqual([...PLACEHOLDER_PATHS].sort());
  });
});
