import type { ApiClient } from '../client/api-client.js';
import type { CaptureIndex } from '../endpoints/capture-index.js';
import type { Scope } from '../endpoints/scope.js';

/** What the HTTP tools of one run share: the client, the endpoint model and the scope. */
export interface HttpToolContext {
  client: ApiClient;
  index: CaptureIndex;
  scope: Scope;
}

const PREVIEW = 2000;

/** A body as the model sees it: JSON, cut to a readable size with a notice. */
export function previewBody(body: unknown): unknown {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (text === undefined || text.length <= PREVIEW) return body;
  return `${text.slice(0, PREVIEW)}… [${text.length - PREVIEW} more characters cut]`;
}
