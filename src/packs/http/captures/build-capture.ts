import type { AuthSample, Capture } from './capture.js';
import { parseMaybeJson, splitHeaders } from './normalize-headers.js';

/** What an importer read, before Tally's rules are applied. */
export interface RawCapture {
  id: string;
  session: string;
  method: string;
  url: URL;
  /** Lower-cased names. */
  requestHeaders: Record<string, string>;
  requestText?: string;
  requestContentType?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseText?: string;
  responseContentType?: string;
  /** As recorded; anything unparseable means stale. */
  timestamp?: unknown;
  resourceType?: string;
}

/** The one place a capture is made: secrets split off into an auth sample, bodies parsed, time normalized. */
export function buildCapture(raw: RawCapture): { capture: Capture; auth?: AuthSample } {
  const request = splitHeaders(raw.requestHeaders);
  const response = splitHeaders(raw.responseHeaders);
  const timeText = raw.timestamp instanceof Date ? raw.timestamp.toISOString() : raw.timestamp;
  const timestamp =
    typeof timeText === 'string' && !Number.isNaN(Date.parse(timeText))
      ? new Date(timeText).toISOString()
      : undefined;
  const requestBody = parseMaybeJson(
    raw.requestText,
    raw.requestContentType ?? request.headers['content-type'],
  );
  const responseBody = parseMaybeJson(
    raw.responseText,
    raw.responseContentType ?? response.headers['content-type'],
  );
  const capture: Capture = {
    id: raw.id,
    method: raw.method.toUpperCase(),
    url: `${raw.url.origin}${raw.url.pathname}${raw.url.search}`,
    origin: raw.url.origin,
    path: raw.url.pathname,
    query: Object.fromEntries(raw.url.searchParams),
    requestHeaders: request.headers,
    ...(requestBody !== undefined ? { requestBody } : {}),
    ...(raw.requestText ? { requestBodyText: raw.requestText } : {}),
    status: raw.status,
    responseHeaders: response.headers,
    ...(responseBody !== undefined ? { responseBody } : {}),
    ...(timestamp ? { timestamp } : {}),
    provenance: 'browser',
    session: raw.session,
    ...(raw.resourceType ? { resourceType: raw.resourceType } : {}),
  };
  const auth =
    Object.keys(request.auth).length > 0
      ? { session: raw.session, ...(timestamp ? { timestamp } : {}), headers: request.auth }
      : undefined;
  return { capture, ...(auth ? { auth } : {}) };
}
