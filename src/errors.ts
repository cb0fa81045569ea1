import { withoutApiKeys } from './api-key-format.ts';

/**
 * The kinds of failure services report. The HTTP layer maps each kind to a status in one place
 * (api/errors.ts); the command line prints the message. Messages are safe to show to a user: one
 * that repeats the caller's input (an id) never repeats an API key pasted into it.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: 'not_found' | 'conflict' | 'limit' | 'unauthorized' | 'forbidden',
    message: string,
  ) {
    super(withoutApiKeys(message));
  }
}

export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const limitReached = (message: string) => new DomainError('limit', message);
export const unauthorized = (message: string) => new DomainError('unauthorized', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
