import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { RouterError } from '../features/pacs-router/router-client';
import { errorText } from './error-text';

describe('errorText', () => {
  it("shows the server's reason when it gave one", () => {
    const error = new ApiError(
      409,
      { errorDescription: 'That code has expired' },
      { kind: 'message', text: 'Conflict' },
    );
    expect(errorText(error)).toBe('That code has expired');
  });

  it("shows the client's text when the server gave no reason", () => {
    expect(errorText(new ApiError(500, null, { kind: 'message', text: 'Something went wrong' }))).toBe(
      'Something went wrong',
    );
    expect(
      errorText(new ApiError(400, { errorDescription: '' }, { kind: 'message', text: 'Bad request' })),
    ).toBe('Bad request');
    expect(errorText(new RouterError(0, 'The router does not answer'))).toBe('The router does not answer');
    expect(errorText(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
  });

  it('shows a thrown value that is not an error as it is', () => {
    expect(errorText('offline')).toBe('offline');
  });
});
