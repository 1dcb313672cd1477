import { z } from 'zod';
import type { AuthSample, Capture } from './capture.js';
import { CaptureFormatError } from './capture-error.js';
import { parseMaybeJson, splitHeaders } from './normalize-headers.js';

const nameValue = z.object({ name: z.string(), value: z.string() });
const harSchema = z.object({
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

/** Parses HAR 1.2 text into captures (all of them; filtering is separate). */
export function parseHar(text: string, source: string): { captures: Capture[]; auth: AuthSample[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new CaptureFormatError(source, '', `not valid JSON (${error.message})`);
  }
  const parsed = harSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    throw new CaptureFormatError(source, where(issue.path), issue.message);
  }
  const captures: Capture[] = [];
  const auth: AuthSample[] = [];
  parsed.data.log.entries.forEach((entry, index) => {
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
    const request = splitHeaders(headerMap(entry.request.headers));
    const response = splitHeaders(headerMap(entry.response.headers));
    const content = entry.response.content;
    const responseText =
      content?.encoding === 'base64' && content.text
        ? Buffer.from(content.text, 'base64').toString('utf8')
        : content?.text;
    const timestamp =
      entry.startedDateTime && !Number.isNaN(Date.parse(entry.startedDateTime))
        ? new Date(entry.startedDateTime).toISOString()
        : undefined;
    const requestText = entry.request.postData?.text;
    const requestBody = parseMaybeJson(
      requestText,
      entry.request.postData?.mimeType ?? request.headers['content-type'],
    );
    const responseBody = parseMaybeJson(responseText, content?.mimeType ?? response.headers['content-type']);
    captures.push({
      id: `${source}#${index}`,
      method: entry.request.method.toUpperCase(),
      url: `${url.origin}${url.pathname}${url.search}`,
      origin: url.origin,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      requestHeaders: request.headers,
      ...(requestBody !== undefined ? { requestBody } : {}),
      ...(requestText !== undefined && requestText !== '' ? { requestBodyText: requestText } : {}),
      status: entry.response.status,
      responseHeaders: response.headers,
      ...(responseBody !== undefined ? { responseBody } : {}),
      ...(timestamp ? { timestamp } : {}),
      provenance: 'browser',
      session: source,
      ...(entry._resourceType ? { resourceType: entry._resourceType } : {}),
    });
    if (Object.keys(request.auth).length > 0)
      auth.push({ session: source, ...(timestamp ? { timestamp } : {}), headers: request.auth });
  });
  return { captures, auth };
}
