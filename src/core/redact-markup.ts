/**
 * Secrets in XML and HTML, which carry them under a name prose pairs never see: the content of
 * a secret-named element (`<password>hunter2</password>`, `<wsse:Password>`, `<access_token>`),
 * a secret-named meta tag's `content` (`<meta name="csrf-token" content="…">`) and a
 * secret-named input's `value` (`<input type="hidden" name="authenticity_token" value="…">`),
 * attributes in either order, quoted either way or not at all.
 */

import { decodeHtmlEntities } from './html-entities.js';

/**
 * A meta or input tag (`tag`, `attributes`), a property list's `<key>NAME</key><string>VALUE</string>`
 * (`key`, `keyValue`), or an element with text only (`element`, `content`; `<\/` as a JSON
 * string writes an end tag). Every match starts at a `<` and each part stops at the next `<`
 * or `>`: one linear pass.
 */
const MARKUP =
  /<(?:(?<tag>meta|input)\b(?<attributes>[^<>]*)>|key>(?<key>[^<]*)<\\?\/key>\s*<string>(?<keyValue>[^<]*)<\\?\/string>|(?<element>[A-Za-z_][\w.:-]*)(?:\s[^<>]*)?>(?<content>[^<]*)<\\?\/\k<element>\s*>)/gi;

/**
 * An element whose text is one CDATA section (`<password><![CDATA[hunter2]]></password>`, as
 * SOAP and XML configs write values with markup characters). Its parts stop at `<`, `>` or `]`,
 * and a section's text at 4 KB (no secret is longer): one linear pass even over unclosed
 * sections, run only on a text that has a CDATA section at all.
 */
const CDATA_ELEMENT =
  /<(?<element>[A-Za-z_][\w.:-]*)(?:\s[^<>]*)?>\s*<!\[CDATA\[(?<content>[^\]]{0,4096})\]\]>\s*<\\?\/\k<element>\s*>/gi;

/** The named groups of a MARKUP match (each absent unless its form matched). */
interface MarkupParts {
  tag?: string;
  attributes?: string;
  key?: string;
  keyValue?: string;
  element?: string;
  content?: string;
}
/**
 * One attribute: its name, then its value double-quoted, single-quoted (either quote escaped
 * too, as a page inside a JSON string or a log line has it: `value=\"…\"`) or bare. A name
 * starts only after a space or a quote: a long run of name characters is tried once, not at
 * each of its characters (quadratic: 100,000 of them took 6 s).
 */
const ATTRIBUTE =
  /(?<![^\s"'])([^\s"'<>/=\\]+)\s*=\s*(?:\\"([^"\\]*)\\"|\\'([^'\\]*)\\'|"([^"]*)"|'([^']*)'|([^\s"'=<>`\\]+))/g;
/**
 * A meta tag that names a parameter or header rather than holding a token: Rails'
 * `csrf-param` (`authenticity_token`), Spring's `_csrf_header` (`X-CSRF-TOKEN`). Learned as a
 * secret, that name would be scrubbed from every form and header list.
 */
const NAMES_A_NAME = /[-_.](?:param|header|name)$/i;

/** A value worth masking: not blank, not masked already. */
function maskable(value: string): boolean {
  return value !== '' && !value.startsWith('[redacted');
}

/**
 * `text` with the markup secrets above replaced by what `mask` returns (which remembers them,
 * so a later echo anywhere is scrubbed too). `hides(name, value)` says whether a value under
 * that name is a secret (the redactor's name rule, settings under `pwd` kept). A launchd or
 * app plist keeps its environment as key/string pairs (`<key>API_TOKEN</key><string>…`).
 */
export function scrubMarkupSecrets(
  text: string,
  hides: (name: string, value: string) => boolean,
  mask: (secret: string) => string,
): string {
  const masked = (value: string): string => {
    const plain = decodeHtmlEntities(value);
    if (plain !== value) mask(plain);
    return mask(value);
  };
  /** `whole` with `value` (found after `from`) masked when `name` hides it. */
  const maskIn = (whole: string, name: string, raw: string, from: number): string => {
    const value = raw.trim();
    if (!maskable(value) || !hides(name, value)) return whole;
    const at = whole.indexOf(value, from);
    return `${whole.slice(0, at)}${masked(value)}${whole.slice(at + value.length)}`;
  };
  const scrubbed = text.includes('<![CDATA[')
    ? text.replace(CDATA_ELEMENT, (whole: string, ...rest: unknown[]) => {
        const parts = rest.at(-1) as MarkupParts;
        return maskIn(whole, parts.element as string, parts.content as string, whole.indexOf('[CDATA[') + 7);
      })
    : text;
  return scrubbed.replace(MARKUP, (whole: string, ...rest: unknown[]) => {
    const parts = rest.at(-1) as MarkupParts;
    if (parts.element !== undefined)
      return maskIn(whole, parts.element, parts.content as string, whole.indexOf('>') + 1);
    if (parts.key !== undefined)
      return maskIn(whole, parts.key.trim(), parts.keyValue as string, whole.lastIndexOf('<string>') + 8);
    const tag = parts.tag as string;
    return `<${tag}${scrubTag(tag.toLowerCase(), parts.attributes as string, hides, masked)}>`;
  });
}

/** A meta tag's `content` or an input's `value` when its `name` is secret; the attributes otherwise unchanged. */
function scrubTag(
  tag: string,
  attributes: string,
  hides: (name: string, value: string) => boolean,
  masked: (value: string) => string,
): string {
  const valueAttribute = tag === 'meta' ? 'content' : 'value';
  let name: string | undefined;
  let value: { text: string; at: number } | undefined;
  for (const match of attributes.matchAll(ATTRIBUTE)) {
    const attribute = (match[1] as string).toLowerCase();
    const text = (match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6]) as string;
    if (attribute === 'name') name = text;
    else if (attribute === valueAttribute) {
      // The value's own offset: the match ends with it and its closing quote, escaped or not.
      const quote = match[6] !== undefined ? 0 : match[2] !== undefined || match[3] !== undefined ? 2 : 1;
      const end = (match.index as number) + match[0].length - quote;
      value = { text, at: end - text.length };
    }
  }
  if (name === undefined || value === undefined || !maskable(value.text)) return attributes;
  if (tag === 'meta' && NAMES_A_NAME.test(name)) return attributes;
  if (!hides(name, value.text)) return attributes;
  return `${attributes.slice(0, value.at)}${masked(value.text)}${attributes.slice(value.at + value.text.length)}`;
}

/** An element opened last whose text has not ended: `<password>` or `<access_token>\n  tok…`. */
const OPEN_ELEMENT = /^<([A-Za-z_][\w.:-]*)(?:\s[^<>]*)?>[^<]*$/;
/** A plist key whose string has not ended (or not begun). */
const OPEN_KEY = /<key>([^<]*)<\\?\/key>\s*(?:<string>[^<]*)?$/i;
/** A text streamed out holds back at most this much for an open element: no secret is longer. */
const HOLD_LIMIT = 4096;

/**
 * Where text let out piece by piece (a model's streamed answer) must stop so a markup secret is
 * never cut from its name: at the `<` of a secret-named element whose text has not ended (pretty
 * XML puts it on a line of its own), or of a plist key naming a secret whose `<string>` has not;
 * -1 when nothing is open. Only the text's last 4 KB is looked at: a long text is scanned
 * once per piece.
 */
export function openMarkupSecretAt(text: string, isSecret: (name: string) => boolean): number {
  const last = text.lastIndexOf('<');
  const from = Math.max(0, text.length - HOLD_LIMIT);
  if (last < from) return -1;
  const element = OPEN_ELEMENT.exec(text.slice(last))?.[1];
  if (element !== undefined && element.toLowerCase() !== 'string') return isSecret(element) ? last : -1;
  const key = OPEN_KEY.exec(text.slice(from));
  return key && isSecret((key[1] as string).trim()) ? from + key.index : -1;
}
