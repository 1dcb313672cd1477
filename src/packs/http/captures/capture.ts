/** One request the browser made, as Tally keeps it. Secrets are not in here: see `AuthSample`. */
export interface Capture {
  /** `<source>#<n>`: where it came from, for messages. */
  id: string;
  method: string;
  url: string;
  origin: string;
  path: string;
  query: Record<string, string>;
  /** Lower-cased names; secret values already replaced. */
  requestHeaders: Record<string, string>;
  requestBody?: unknown;
  requestBodyText?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody?: unknown;
  /** ISO time; undefined means stale (no timestamp was recorded). */
  timestamp?: string;
  /** Only browser-made requests are examples; requests Tally made live in the ledger. */
  provenance: 'browser';
  /** One HAR file or one explorbot directory is one capture session. */
  session: string;
  resourceType?: string;
}

/** Auth header values seen in captures, kept in memory only and never written anywhere. */
export interface AuthSample {
  session: string;
  timestamp?: string;
  headers: Record<string, string>;
}

export interface SkippedCapture {
  source: string;
  reason: string;
}

export interface CaptureSet {
  captures: Capture[];
  auth: AuthSample[];
  skipped: SkippedCapture[];
  sources: string[];
}

export const AUTH_HEADERS = ['authorization', 'x-api-key', 'x-csrf-token'] as const;
export const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
