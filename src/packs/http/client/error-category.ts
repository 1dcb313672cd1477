export type ErrorCategory =
  | 'validation'
  | 'authorization'
  | 'not_found'
  | 'conflict'
  | 'temporary'
  | 'server'
  | 'client';

/** What kind of failure an HTTP status is, so the model can decide whether to retry. */
export function errorCategory(status: number): ErrorCategory | undefined {
  if (status < 400) return undefined;
  if (status === 400 || status === 422) return 'validation';
  if (status === 401 || status === 403) return 'authorization';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 408 || status === 425 || status === 429) return 'temporary';
  if (status >= 500) return 'server';
  return 'client';
}
