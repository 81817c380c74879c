import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary, MESSAGE_SCREEN_FAILED } from './AppErrorBoundary';

function Broken(): never {
  throw new Error('render failed');
}

describe('AppErrorBoundary', () => {
  it('shows a message and a reload button instead of a blank page when a screen throws', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <AppErrorBoundary>
        <Broken />
      </AppErrorBoundary>,
    );
    expect(screen.getByRole('alert').textContent).toContain(MESSAGE_SCREEN_FAILED);
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    quiet.mockRestore();
  });

  it('shows the screen when nothing throws', () => {
    render(
      <AppErrorBoundary>
        <p>the list</p>
      </AppErrorBoundary>,
    );
    expect(screen.getByText('the list')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
