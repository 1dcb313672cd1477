import type { Effect } from '../../../core/effects.js';
import type { ToolContext } from '../../../core/tool.js';
import type { ApiClient, ApiRequest, ApiResponse } from '../client/api-client.js';
import type { CaptureIndex } from '../endpoints/capture-index.js';
import type { Scope } from '../endpoints/scope.js';
import { httpEffects } from './http-effects.js';
import { type StampedBody, stampMarker } from './stamp-marker.js';

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

/**
 * Per request object: `request` works the body out for its exchange and again for its status
 * intent after the call (issue 22's per-entity path). Stamping is deterministic, so both agree.
 */
const stampedBodies = new WeakMap<object, { context: HttpToolContext; stamped: StampedBody }>();

/** The body a request is sent with: a create's title carries the run's marker. */
export function bodyToSend(context: HttpToolContext, request: ApiRequest): StampedBody {
  const known = stampedBodies.get(request);
  if (known?.context === context) return known.stamped;
  const stamped = stampMarker(request.method, request.path, request.body, context.client.marker, (path) =>
    context.index.normalize(path),
  );
  stampedBodies.set(request, { context, stamped });
  return stamped;
}

export interface Exchange {
  response: ApiResponse;
  /** What the exchange did, lost creates found again included. */
  effects: Effect[];
  stamped?: StampedBody['stamped'];
  /** Lost creates this read found again, as the model is told of them. */
  found?: { path: string; id: string; note: string; marked: Record<string, string> }[];
}

/**
 * One HTTP exchange of a tool — the one path `request` and `lookup` share: the body as sent
 * (a create's title stamped with the run's marker), sent within THIS run (lost creates and
 * sightings are per run), and its effects. A read that finds a lost create again yields its
 * `created` effect with `reconciledFrom` and `recovers`, whichever tool read it.
 */
export async function exchange(
  context: HttpToolContext,
  request: ApiRequest,
  toolContext: ToolContext,
): Promise<Exchange> {
  const { body, stamped } = bodyToSend(context, request);
  const response = await context.client.send(
    { ...request, ...(body !== undefined ? { body } : {}) },
    toolContext.signal,
    toolContext.runId,
  );
  const effects = httpEffects(response, body, (path) => context.index.normalize(path), context.client.marker);
  const found = (response.reconciled ?? []).map((item) => ({
    path: item.path,
    id: item.id,
    note: `created by ${item.lostVia} (${item.lost.why}); use this id`,
    // The marked values it was sent with: which create of several it is.
    marked: item.lost.marked,
  }));
  return { response, effects, ...(stamped ? { stamped } : {}), ...(found.length > 0 ? { found } : {}) };
}
