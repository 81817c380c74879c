import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFeedback, type TFeedback } from './feedback-context';
import { FeedbackProvider, pushBounded } from './FeedbackProvider';

let feedback: TFeedback;
function Capture() {
  feedback = useFeedback();
  return null;
}

function renderFeedback() {
  render(
    <FeedbackProvider>
      <Capture />
    </FeedbackProvider>,
  );
}

describe('pushBounded', () => {
  it('keeps the newest three', () => {
    expect(pushBounded([1, 2, 3], 4)).toEqual([2, 3, 4]);
    expect(pushBounded([1], 2)).toEqual([1, 2]);
  });
});

describe('snackbars and loading (spec-core §8, §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hides an error after 2 s and an info after 1 s', () => {
    renderFeedback();
    act(() => {
      feedback.showError('Upload failed');
      feedback.showInfo('Saved');
    });
    expect(screen.getByRole('alert').textContent).toBe('Upload failed');
    expect(screen.getByRole('status').textContent).toBe('Saved');
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('alert')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stacks at most three', () => {
    renderFeedback();
    act(() => {
      for (const text of ['one', 'two', 'three', 'four']) feedback.showError(text);
    });
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['two', 'three', 'four']);
  });

  it('hides the loading indicator after 60 s, or when told', () => {
    renderFeedback();
    act(() => {
      feedback.startLoading('Preparing images');
    });
    expect(screen.getByText('Preparing images')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(59_999);
    });
    expect(screen.getByText('Preparing images')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Preparing images')).toBeNull();

    let hide = () => undefined as void;
    act(() => {
      hide = feedback.startLoading('Saving');
    });
    act(() => {
      hide();
    });
    expect(screen.queryByText('Saving')).toBeNull();
  });
});

describe('dialogs', () => {
  it('resolves a confirm with the button pressed', async () => {
    renderFeedback();
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = feedback.confirm({ message: 'Delete this tag?' });
    });
    expect(screen.getByText('Delete this tag?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer).resolves.toBe(true);

    act(() => {
      answer = feedback.confirm({ message: 'Mark urgent?' });
    });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect(answer).resolves.toBe(false);
  });

  it('shows info dialogs one after another, each closed with Close', async () => {
    renderFeedback();
    let first: Promise<void> = Promise.resolve();
    act(() => {
      first = feedback.showInfoDialog({ message: 'First' });
      void feedback.showInfoDialog({ message: 'Second' });
    });
    expect(screen.getByRole('dialog').textContent).toContain('First');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await first;
    expect(await screen.findByText('Second')).toBeTruthy();
  });
});
