import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { preloadable } from './preloadable';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

const inSuspense = (node: React.ReactNode) => <Suspense fallback={<p>Loading</p>}>{node}</Suspense>;

describe('preloadable', () => {
  it('draws a preloaded component at once: no fallback, so no suspense throttle', async () => {
    const Lazy = preloadable(() => Promise.resolve({ default: Greeting }));
    await Lazy.preload();
    render(inSuspense(<Lazy name="Asha" />));
    // Synchronously, in the first commit: React.lazy would show the fallback first.
    expect(screen.getByText('Hello Asha')).toBeDefined();
    expect(screen.queryByText('Loading')).toBeNull();
  });

  it('suspends like React.lazy when drawn before its chunk is loaded', async () => {
    const Lazy = preloadable(() => Promise.resolve({ default: Greeting }));
    render(inSuspense(<Lazy name="Ravi" />));
    expect(screen.getByText('Loading')).toBeDefined();
    expect(await screen.findByText('Hello Ravi')).toBeDefined();
  });

  it('loads its chunk once however often it is asked', async () => {
    const load = vi.fn(() => Promise.resolve({ default: Greeting }));
    const Lazy = preloadable(load);
    await Promise.all([Lazy.preload(), Lazy.preload()]);
    render(inSuspense(<Lazy name="Mei" />));
    await Lazy.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries a chunk that failed to load again on the next call', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Greeting }>>()
      .mockRejectedValueOnce(new Error('chunk gone'))
      .mockResolvedValue({ default: Greeting });
    const Lazy = preloadable(load);
    await expect(Lazy.preload()).rejects.toThrow('chunk gone');
    await Lazy.preload();
    await act(async () => {
      render(inSuspense(<Lazy name="Omar" />));
    });
    expect(screen.getByText('Hello Omar')).toBeDefined();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
