import { z } from 'zod';
import { builtOnce } from '../../../core/built-once.js';
import { parseFailure } from '../../../core/parse-error-place.js';
import { buildCapture } from './build-capture.js';
import type { AuthSample, Capture, SkippedCapture } from './capture.js';
import { CaptureFormatError } from './capture-error.js';

// The source of truth for what a HAR must hold, and for the message when it does not. Built on first
// failure only: a capture that passes `fitsHar` (every run with a good file) never builds it.
// Exported for the test that holds `fitsHar` to it.
export const harSchema = builtOnce(buildHarSchema);

function buildHarSchema() {
  const nameValue = z.object({ name: z.string(), value: z.string() });
  return z.object({
    log: z.object({
      entries: z.array(
        z.object({
          startedDateTime: z.string().optional(),
          _resourceType: z.string().optional(),
          request: z.object({
            method: z.string().min(1),
            url: z.string().min(1),
            headers: z.array(nameValue).default([]),
            postData: z.object({ mimeType: z.string().optional(), text: z.string().optional() }).optional(),
          }),
          response: z.object({
            status: z.number().int(),
            headers: z.array(nameValue).default([]),
            content: z
              .object({
                mimeType: z.string().optional(),
                text: z.string().optional(),
                encoding: z.string().optional(),
              })
              .optional(),
          }),
        }),
      ),
    }),
  });
}

type Har = z.output<ReturnType<typeof buildHarSchema>>;

function where(path: PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}

function headerMap(pairs: { name: string; value: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value } of pairs) {
    const lower = name.toLowerCase();
    out[lower] = out[lower] === undefined ? value : `${out[lower]}, ${value}`;
  }
  return out;
}

/** zod's verdict on a HAR `fitsHar` refused: its first problem and where it is (were zod to accept it, its output serves). */
function validated(json: unknown, source: string): Har {
  const parsed = harSchema().safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    throw new CaptureFormatError(source, where(issue.path), issue.message);
  }
  return parsed.data;
}

/** A HAR as it was parsed, passed as the schema's output: `fitsHar` checked every field read. */
type HarInput = {
  log: {
    entries: (Omit<Har['log']['entries'][number], 'request' | 'response'> & {
      request: Omit<Har['log']['entries'][number]['request'], 'headers'> & { headers?: NameValue[] };
      response: Omit<Har['log']['entries'][number]['response'], 'headers'> & { headers?: NameValue[] };
    })[];
  };
};
type NameValue = { name: string; value: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const optionalString = (value: unknown) => value === undefined || typeof value === 'string';
const nonEmptyString = (value: unknown) => typeof value === 'string' && value.length > 0;
const headerList = (value: unknown) =>
  value === undefined ||
  (Array.isArray(value) &&
    value.every((pair) => isObject(pair) && typeof pair.name === 'string' && typeof pair.value === 'string'));

/**
 * The schema's rules written out (issue 22: zod's validation of a capture was ~13 ms of every
 * `tally fish`): true exactly when `harSchema()` accepts `json` — property-tested against it —
 * and then the fields read here are the schema's output but for the `headers` default (`?? []`).
 */
export function fitsHar(json: unknown): json is HarInput {
  if (!isObject(json) || !isObject(json.log) || !Array.isArray(json.log.entries)) return false;
  return json.log.entries.every((entry: unknown) => {
    if (!isObject(entry) || !optionalString(entry.startedDateTime) || !optionalString(entry._resourceType))
      return false;
    const { request, response } = entry;
    if (!isObject(request) || !nonEmptyString(request.method) || !nonEmptyString(request.url)) return false;
    if (!headerList(request.headers)) return false;
    const post = request.postData;
    if (post !== undefined && !(isObject(post) && optionalString(post.mimeType) && optionalString(post.text)))
      return false;
    if (!isObject(response) || !Number.isSafeInteger(response.status) || !headerList(response.headers))
      return false;
    const content = response.content;
    return (
      content === undefined ||
      (isObject(content) &&
        optionalString(content.mimeType) &&
        optionalString(content.text) &&
        optionalString(content.encoding))
    );
  });
}

/**
 * Why a URL is no request to a server, or undefined for http(s). A `data:` or `blob:` URL is
 * content the browser answered itself; its "path" is that content, so it is never quoted.
 */
export function notServerRequest(url: URL): string | undefined {
  if (url.protocol === 'http:' || url.protocol === 'https:') return undefined;
  return `a ${url.protocol} URL, which the browser answers itself (no server saw it)`;
}

/** Parses HAR 1.2 text into captures (all of them but what no server saw; filtering is separate). */
export function parseHar(
  text: string,
  source: string,
): { captures: Capture[]; auth: AuthSample[]; skipped: SkippedCapture[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new CaptureFormatError(source, '', parseFailure('JSON', error, text));
  }
  const har: HarInput = fitsHar(json) ? json : validated(json, source);
  const captures: Capture[] = [];
  const auth: AuthSample[] = [];
  const skipped: SkippedCapture[] = [];
  har.log.entries.forEach((entry, index) => {
    let url: URL;
    try {
      url = new URL(entry.request.url);
    } catch (error) {
      if (error instanceof TypeError)
        throw new CaptureFormatError(
          source,
          `log.entries[${index}].request.url`,
          `"${entry.request.url}" is not an absolute URL`,
        );
      throw error;
    }
    const notServer = notServerRequest(url);
    if (notServer) {
      skipped.push({ source: `${source}#${index}`, reason: notServer });
      return;
    }
    const content = entry.response.content;
    const built = buildCapture({
      id: `${source}#${index}`,
      session: source,
      method: entry.request.method,
      url,
      requestHeaders: headerMap(entry.request.headers ?? []),
      ...(entry.request.postData?.text !== undefined ? { requestText: entry.request.postData.text } : {}),
      ...(entry.request.postData?.mimeType ? { requestContentType: entry.request.postData.mimeType } : {}),
      status: entry.response.status,
      responseHeaders: headerMap(entry.response.headers ?? []),
      ...(content?.text !== undefined
        ? {
            responseText:
              content.encoding === 'base64'
                ? Buffer.from(content.text, 'base64').toString('utf8')
                : content.text,
          }
        : {}),
      ...(content?.mimeType ? { responseContentType: content.mimeType } : {}),
      timestamp: entry.startedDateTime,
      ...(entry._resourceType ? { resourceType: entry._resourceType } : {}),
    });
    captures.push(built.capture);
    if (built.auth) auth.push(built.auth);
  });
  return { captures, auth, skipped };
}
