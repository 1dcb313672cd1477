import { createHash } from 'node:crypto';
import { KnownSecretsIndex } from './known-secrets-index.js';
import { decodeFormValue, decodePercent } from './percent-decoding.js';
import { scrubMarkupSecrets } from './redact-markup.js';
import { scrubSecretShapes } from './secret-shapes.js';

export const REDACTED = '[redacted]';

/**
 * Words that make a header or field name secret once the name is split into words: the
 * secret headers (`Authorization`, `Set-Cookie`, `X-API-Key`, `X-CSRF-Token`,
 * `Proxy-Authorization`) are found by their words like any field.
 */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'pass',
  'pwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'credential',
  'credentials',
  'authorization',
  'cookie',
  'csrf',
  'csrfmiddlewaretoken',
  'xsrf',
  'sessionid',
  'privatekey',
  'jwt',
  'auth',
]);

const BEARER = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{6,}/g;

/**
 * `name=value` and `name: value` inside prose (`connecting with password=hunter22 to db`).
 * The name is the whole run of name characters before the `=`/`:` (so `token count=3` names
 * `count`), after up to two dashes (`--password=…` echoed from a command line) and optionally
 * closed by a quote (`"token":"…"` in an echoed JSON body); the value starts right after (see
 * PAIR_VALUE). The lookbehind lets a name start only where a word starts, which keeps the scan
 * linear on a long word.
 *
 * Spaces may stand around the separator (`password = "…"` in TOML, Python or an AWS credentials
 * file; `"token" : "…"`): around `=` on both sides or neither (`password= (empty)` has no value),
 * and `==` or `=>` is a comparison or an arrow, not an assignment. A flag
 * (`--password hunter22`, two dashes) takes its value after a space alone.
 */
const PAIR_NAME =
  /(?<![\w.-])(-{0,2})([A-Za-z_][\w.-]*)["']?(=|[ \t]+=(?![=>~])[ \t]+|[ \t]*:[ \t]*|[ \t]+)/g;
/**
 * The schemes of an `Authorization` value (RFC 7235, any case: `authorization: bearer …` in a
 * log line). Credentials after one are a single token (`Bearer <token68>`) or, when they open
 * with a parameter (`Digest username="…", response="…"`), parameters to the end of the line.
 */
const AUTH_SCHEME =
  /(?:basic|bearer|digest|hoba|mutual|negotiate|ntlm|oauth|scram-sha-1|scram-sha-256|vapid|aws4-hmac-sha256|token|bot|apikey|dpop|gnap|privatetoken|concealed)[ \t]+(?=\S)/iy;
/** Credentials that open with `name=` and a value (not token68's `=` padding): parameters. */
const AUTH_PARAMS = /[\w-]+=(?![=\s]|$)/y;
/** Token68 credentials: one run of non-space characters. */
const ONE_TOKEN = /[^\s"']+/y;
/** A value that runs to the end of its line (credentials after a scheme, a cookie header's pairs). */
const REST_OF_LINE = /[^\r\n]*/y;
/**
 * A value: quoted on one line, or a run of characters up to a space or `&` (the next query
 * pair of a URL in prose). `Authorization: Bearer …` is left to BEARER, which masks the token
 * and keeps the scheme word.
 */
const PAIR_VALUE = /"[^"\n]*"|'[^'\n]*'|(?!(?:Bearer|Basic|Token)\s)[^\s&]+/y;
/**
 * A name `isSecretName` accepts contains one of these (`api_key` and `private_key` hold `key`),
 * unless it splits a secret word itself in two (`se_cret`), which prose is not searched for.
 */
const SECRET_HINT = /pass|pwd|secret|token|key|credential|auth|cookie|srf|session|jwt/i;
/**
 * Where the first word that may name a secret starts in `text`, or -1: text streamed in pieces
 * is held from there to the line's end, since a secret-named pair's value may run that far
 * (`Cookie: a=1; sid=…`, `--password hunter22`, `password = "…"`) and a piece would cut it.
 */
export function secretHintAt(text: string): number {
  const found = text.search(SECRET_HINT);
  if (found < 0) return -1;
  return (
    Math.max(text.lastIndexOf(' ', found), text.lastIndexOf('\t', found), text.lastIndexOf('\n', found)) + 1
  );
}
/** Sentence punctuation after an unquoted value: `password=hunter22.` also teaches `hunter22`. */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}]+$/;

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * A name ending in one of these words names something ABOUT a secret, not the secret:
 * `apiKeyId`, `token_type`, `password_updated_at`. System-made ids must stay readable
 * (they are evidence).
 */
const DESCRIPTIVE_ENDINGS = new Set(['id', 'ids', 'uuid', 'guid', 'type', 'kind', 'count', 'at', 'length']);

/**
 * Words that name a password only sometimes: `PWD` and `OLDPWD` hold the shell's working
 * directory, `pass` a test count (`"pass": 12`) or status (`--- PASS: TestLogin`). They name a
 * secret only as a name's last word, and under such a name a setting (see `isSetting`) is kept;
 * anything else is masked (`DB_PASS=s3cret`).
 */
const AMBIGUOUS_WORDS = new Set(['pass', 'pwd']);
/** One word with a password word glued on its end: `dbpasswd`, `PGPASSWORD`, `mysqlpwd`. */
const GLUED_PASSWORD = /(?:password|passwd|pwd)$/;

/** How secret a name is: `secret`, `ambiguous` (a setting under it is kept, see AMBIGUOUS_WORDS) or undefined (not secret). */
export type SecretNameKind = 'secret' | 'ambiguous' | undefined;

/** Whether a header or field name looks like it holds a secret, and how surely (see `SecretNameKind`). */
export function secretNameKind(name: string): SecretNameKind {
  const parts = words(name);
  // `session_id` is the session itself (a compound secret word); `api_key_id` only names a
  // key. A lone `id` or `type` is no secret word either.
  if (DESCRIPTIVE_ENDINGS.has(parts.at(-1) as string) && !SECRET_WORDS.has(parts.slice(-2).join('')))
    return undefined;
  for (const [index, word] of parts.entries()) {
    const next = parts[index + 1];
    // api_key, session_id, private_key; pass_word and pass_phrase before `pass` alone.
    if (next && SECRET_WORDS.has(word + next)) return 'secret';
    if (SECRET_WORDS.has(word) && !AMBIGUOUS_WORDS.has(word)) return 'secret';
    if (GLUED_PASSWORD.test(word) && !word.endsWith('pwd')) return 'secret';
  }
  // `pass` and `pwd` only as the last word (`DB_PASS`, `dbpwd`): `--passWithNoTests`,
  // `pass_rate` or `pwd_hint` name no password.
  const last = parts.at(-1) ?? '';
  return AMBIGUOUS_WORDS.has(last) || last.endsWith('pwd') ? 'ambiguous' : undefined;
}

/** True when a header or field name looks like it holds a secret. */
export function isSecretName(name: string): boolean {
  return secretNameKind(name) !== undefined;
}

/** A path made of path characters only (`/home/me/project`): what `PWD` holds, no password. */
const PLAIN_PATH = /^(?:~?\/|[A-Za-z]:[\\/])[\w.~+\\/ -]*$/;

/**
 * A setting rather than a credential, kept under an ambiguous name (`PWD=/home/me/project`,
 * `"pass": 12`, `pass: true`): a plain path, a number or a boolean, the values
 * `secretEnvironmentValues` does not hunt either. A password of digits only under such a name
 * is kept; under `password` or `DB_PASSWORD` it is masked.
 */
export function isSetting(value: unknown): boolean {
  if (typeof value === 'number' || typeof value === 'boolean') return true;
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  return PLAIN_PATH.test(trimmed) || /^-?\d+(?:\.\d+)?$/.test(trimmed) || /^(?:true|false)$/i.test(trimmed);
}

/** A filesystem path (`/…`, `~/…`, `C:\\…`): what `PWD`, `SSH_AUTH_SOCK` or `*_CREDENTIALS_FILE` hold. */
const FILESYSTEM_PATH = /^(?:~?\/|[A-Za-z]:[\\/])/;

/**
 * The values of the secret-named variables of an environment (`OPENAI_API_KEY`, `GITHUB_TOKEN`,
 * `DB_PASSWORD`): credentials the process was given, which a provider's error message or a
 * tool's output may echo back. A key without a known shape (a gateway's or Azure's hex key)
 * is caught only by its value. A path is no secret: `PWD` (the working directory, named like a
 * password) or a credentials file's location would scrub every path in the evidence.
 */
export function secretEnvironmentValues(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env).flatMap(([name, raw]) => {
    const value = raw?.trim() ?? '';
    // A session id in the environment (CLAUDE_SESSION_ID, TALLY_SESSION_ID) names a session, it
    // is no credential: Tally itself files its session state under it.
    const named = isSecretName(name.replace(/session_?id|sessionid|session|sid/gi, '_'));
    return named && couldBeCredential(value) ? [value] : [];
  });
}

/**
 * Whether a secret-named variable's value could be a credential worth scrubbing everywhere. A
 * setting is not: a path, a number (an id in the evidence), or one plain word (`production`,
 * `enabled`, `disabled`: `AUTH_MODE=production` would scrub that word from every title and
 * body). A letters-only password is missed by this rule; it is still caught where it is named.
 */
function couldBeCredential(value: string): boolean {
  if (value.length < 8 || FILESYSTEM_PATH.test(value)) return false;
  return !/^\d+$/.test(value) && !/^(?:[a-z]+|[A-Z]+|[A-Z][a-z]+)$/.test(value);
}

export interface RedactorOptions {
  /** Append a short hash so equal secrets stay comparable: `[redacted:3fa9c1]`. */
  hashSecrets?: boolean;
  /** Values the caller KNOWS are secret (a login's password, a session cookie): scrubbed wherever they appear. */
  knownSecrets?: Iterable<string>;
  /**
   * A list that only grows, followed for the redactor's life (the ledger's known secrets): a
   * value appended to it (a session cookie rotated mid-run) is learned before the next
   * redaction, so a run already under way scrubs it too.
   */
  followedSecrets?: readonly string[];
  /**
   * Exact field names (any case) that are secret in this context besides what
   * `isSecretName` decides: capture redaction adds `otp`, `pin` — too common elsewhere
   * (`pin: true` on a post) to redact in every ledger.
   */
  secretNames?: Iterable<string>;
}

export interface Redactor {
  redact<T>(value: T): T;
  redactText(text: string): string;
  /** Registers a value known to be secret; shorter than 6 characters it is ignored (it would scrub ids). */
  remember(value: string): void;
}

/**
 * A known secret shorter than this is not scrubbed by value: `12`, `alpha` or `true` appear
 * in ids, paths and titles everywhere, and scrubbing them would destroy evidence.
 */
export const MIN_KNOWN_SECRET_LENGTH = 6;

/**
 * An absolute URL (`scheme://…`), a protocol-relative one (`//host/…`, which a `location`
 * header may carry) or a root-relative path: one token with no spaces.
 */
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/|\/)[^\s]*$/i;
/** `scheme://user:pass@` or `//user:pass@`: the authority's userinfo, before the host. */
const USERINFO = /^((?:[a-z][a-z0-9+.-]*:)?\/\/)([^/?#@\s]*)@/i;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * The forms a known secret travels in besides its own bytes, each scrubbed like the secret: a
 * query string or form body (percent-encoded, `+` for a space), a JSON string (`\"`, `\\`), an
 * HTML page that echoes it (`&amp;`), and base64 or base64url (an `Authorization: Basic` value,
 * a token blob). A secret inside a longer base64 text starts
 * at another alignment and is not found this way.
 */
function encodedForms(secret: string): string[] {
  // Unpadded only: it is found inside the padded form as well.
  const base64 = (encoding: 'base64' | 'base64url'): string =>
    Buffer.from(secret, 'utf8').toString(encoding).replace(/=+$/, '');
  const forms = [
    encodeURIComponent(secret),
    new URLSearchParams({ v: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    secret.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] as string),
    base64('base64'),
    base64('base64url'),
  ];
  return [...new Set(forms)].filter((form) => form !== secret);
}

/** Between the pairs of a cookie header, or of Set-Cookie headers folded into one value. */
const COOKIE_SEPARATOR = /;|\r?\n|,(?=\s*[!#$%&'*+.^_`|~\w-]+=)/;

const COOKIE_ATTRIBUTE =
  /^(Path|HttpOnly|Secure|SameSite|Lax|Strict|None|Max-Age|Expires|Domain|Priority|Partitioned)$/i;
/** Deeper nesting than this is cut from what is stored or printed. */
const MAX_DEPTH = 200;
/** Strings up to this length have their redaction remembered (see `redactStringOnce`). */
const MEMO_MAX_CHARS = 256;
/** The most strings remembered before the memo starts again (a long-lived server). */
const MEMO_MAX_ENTRIES = 4096;
const TOO_DEEP = '[too deeply nested]';

/**
 * Redaction before anything is persisted or printed. Secret-named fields and headers are
 * replaced; every secret value seen is remembered (in memory only) so a later echo of it
 * anywhere — a model's text, an error message — is scrubbed too.
 */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const seen = new Set<string>();
  // What scrubKnown hunts: every secret learned, indexed as it is learned (known-secrets-index.ts).
  const known = new KnownSecretsIndex();
  // Entries repeat the same short strings (a method, a path, a status word, a field's value):
  // each is redacted once while the known secrets stay the same. Only a redaction that taught
  // nothing is kept, and learning a secret empties the memo, since a string's redaction depends
  // on nothing else (the options are fixed for the redactor's life).
  const memo = new Map<string, string>();
  const learn = (value: string): void => {
    if (seen.has(value)) return;
    seen.add(value);
    known.add(value);
    memo.clear();
  };
  const extraNames = new Set([...(options.secretNames ?? [])].map((name) => name.toLowerCase()));
  const decide = (name: string): SecretNameKind =>
    extraNames.has(name.toLowerCase()) ? 'secret' : secretNameKind(name);
  // Entries repeat the same few keys; deciding each once keeps redaction off the hot path.
  // (Names found in prose are decided afresh: prose brings names without end.)
  const secretNames = new Map<string, SecretNameKind | null>();
  const kindOf = (name: string): SecretNameKind => {
    let kind = secretNames.get(name);
    if (kind === undefined) {
      kind = decide(name) ?? null;
      secretNames.set(name, kind);
    }
    return kind ?? undefined;
  };
  /** Whether `value` under `name` is masked: any value of a secret name, no setting of an ambiguous one. */
  const hides = (kind: SecretNameKind, value: unknown): boolean =>
    kind === 'secret' || (kind === 'ambiguous' && !isSetting(value));

  /** A secret and the forms it is carried in besides itself (see `encodedForms`). */
  const learnWithForms = (value: string): void => {
    learn(value);
    for (const form of encodedForms(value)) if (form.length >= MIN_KNOWN_SECRET_LENGTH) learn(form);
  };

  // `Bearer <token>`, `sid=<value>; Path=/`: an echo of just the value part must be caught
  // too — but not the cookie names and attributes around it. Set-Cookie headers folded into
  // one value come apart at a newline or at a `, ` before the next `name=`.
  const learnParts = (secret: string): void => {
    for (const part of secret.split(COOKIE_SEPARATOR)) {
      const eq = part.indexOf('=');
      // `Expires=Wed, 21 Oct…`, `Domain=…`: a cookie's attributes are not its secret.
      if (eq >= 0 && COOKIE_ATTRIBUTE.test(part.slice(0, eq).trim())) continue;
      const raw = eq >= 0 ? part.slice(eq + 1).trim() : (part.trim().split(/\s+/).at(-1) as string);
      // A cookie value may be quoted (`sid="…"`) or percent-encoded (`s%3A…`): a page echoes it bare.
      const unquoted = raw.length > 1 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
      for (const value of new Set([raw, unquoted, decodePercent(unquoted)]))
        if (value.length >= MIN_KNOWN_SECRET_LENGTH && !COOKIE_ATTRIBUTE.test(value)) learnWithForms(value);
    }
  };

  const remember = (value: string): void => {
    if (typeof value !== 'string' || value.length < MIN_KNOWN_SECRET_LENGTH) return;
    learnWithForms(value);
    learnParts(value);
  };
  for (const value of options.knownSecrets ?? []) remember(value);
  const followed = options.followedSecrets;
  let followedTaken = 0;
  /** Learns what was appended to `followedSecrets` since the last redaction (one comparison when nothing was). */
  const catchUp = (): void => {
    if (!followed || followed.length === followedTaken) return;
    const added = followed.slice(followedTaken);
    followedTaken = followed.length;
    for (const value of added) remember(value);
  };
  catchUp();

  const label = (secret: string): string =>
    options.hashSecrets
      ? `[redacted:${createHash('sha256').update(secret).digest('hex').slice(0, 6)}]`
      : REDACTED;

  const mask = (secret: string): string => {
    // Shorter values are masked where they stand but not hunted elsewhere: `alpha` or `1001`
    // would scrub ids and words out of the evidence.
    if (secret.length >= MIN_KNOWN_SECRET_LENGTH) learnWithForms(secret);
    learnParts(secret);
    return label(secret);
  };

  /** A value as it stood in a URL or form: remembered decoded and as sent (`%40`, `+`). */
  const maskEncoded = (raw: string): void => {
    mask(decodeFormValue(raw));
    mask(raw);
  };

  const maskValue = (value: unknown): unknown => {
    if (typeof value === 'string') return mask(value);
    if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? mask(item) : REDACTED));
    if (value === null || value === undefined) return value;
    return REDACTED;
  };

  /**
   * The value after an auth scheme (the scheme word is kept: a token, or parameters to the end
   * of the line) or a cookie header's pairs to the end of the line (`Cookie: a=1; sid=…`: every
   * pair is the secret); undefined for an ordinary value. `length` is how much of `text` it took.
   */
  const lineValueAt = (
    text: string,
    start: number,
    name: string,
  ): { kept: string; masked: string; length: number } | undefined => {
    AUTH_SCHEME.lastIndex = start;
    const scheme = AUTH_SCHEME.exec(text)?.[0];
    const cookie = scheme === undefined && words(name).some((word) => word.includes('cookie'));
    if (scheme === undefined && !cookie) return undefined;
    const valueStart = start + (scheme?.length ?? 0);
    if (text[valueStart] === '"' || text[valueStart] === "'") return undefined;
    AUTH_PARAMS.lastIndex = valueStart;
    const toLineEnd = cookie || AUTH_PARAMS.test(text);
    const pattern = toLineEnd ? REST_OF_LINE : ONE_TOKEN;
    pattern.lastIndex = valueStart;
    const line = (pattern.exec(text)?.[0] ?? '').trimEnd();
    if (line === '' || line.startsWith('[redacted')) return undefined;
    // A token or a cookie list is a value, learned; parameters are masked where they stand.
    const masked = toLineEnd && !cookie ? label(line) : mask(line);
    return { kept: scheme ?? '', masked, length: (scheme?.length ?? 0) + line.length };
  };

  /**
   * Secret-named pairs in prose, each value masked where it stands. After `name: ` an unquoted
   * value is masked but not learned: prose such as `Secret: credentials are kept…` would teach
   * `credentials` and scrub the word from all later evidence. After `=` or in quotes it is a
   * value, learned like any other (`password=hunter22.` teaches `hunter22.` and `hunter22`).
   */
  const redactProsePairs = (text: string): string => {
    // Most text names no secret at all: one scan for the words every secret name contains.
    if (extraNames.size === 0 && !SECRET_HINT.test(text)) return text;
    // One shared pattern: nothing below calls back into this function before the loop ends.
    const names = PAIR_NAME;
    names.lastIndex = 0;
    let out = '';
    let from = 0;
    for (let match = names.exec(text); match; match = names.exec(text)) {
      const separator = match[3] as string;
      const flag = separator.trim() === '';
      if (flag && match[1] !== '--') continue;
      const name = match[2] as string;
      const kind = decide(name);
      // `--- PASS: TestLogin (0.01s)` (go test), `PASS: tests/login` (automake): a status, no password.
      if (!kind || (name === 'PASS' && separator.trim() === ':')) continue;
      const start = names.lastIndex;
      const lineValue = lineValueAt(text, start, name);
      if (lineValue) {
        out += `${text.slice(from, start)}${lineValue.kept}${lineValue.masked}`;
        names.lastIndex = from = start + lineValue.length;
        continue;
      }
      PAIR_VALUE.lastIndex = start;
      const value = PAIR_VALUE.exec(text)?.[0];
      if (value === undefined) continue;
      names.lastIndex += value.length;
      const quoted = value.length > 1 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0];
      const secret = quoted ? value.slice(1, -1) : value;
      if (secret === '' || secret.startsWith('[redacted') || !hides(kind, secret)) continue;
      let masked: string;
      // A spaced `=` without quotes is most often code (`token = getToken()`): masked, not learned.
      if (quoted || flag || separator === '=') {
        masked = mask(secret);
        mask(secret.replace(TRAILING_PUNCTUATION, ''));
      } else masked = label(secret);
      out += `${text.slice(from, start)}${quoted ? value[0] : ''}${masked}`;
      from = names.lastIndex - (quoted ? 1 : 0);
    }
    return `${out}${text.slice(from)}`;
  };

  /**
   * BEARER tokens, secrets of a known shape (secret-shapes.ts) and the known secrets, nothing
   * else (a URL's path keeps its `name=value`).
   */
  const scrubKnown = (text: string): string => {
    const out = scrubSecretShapes(
      text.replace(BEARER, (_match, scheme: string) => `${scheme} ${REDACTED}`),
      mask,
      label,
    );
    return known.scrub(out, REDACTED);
  };

  const markupHides = (name: string, value: string): boolean => hides(decide(name), value);
  /**
   * Markup secrets (redact-markup.ts) first, so their values are learned before the known ones
   * are scrubbed; that second pass runs only on text that holds a tag.
   */
  const redactText = (text: string): string =>
    scrubKnown(redactProsePairs(text.includes('<') ? scrubMarkupSecrets(text, markupHides, mask) : text));

  /** `k=v&k2=v2` with each secret-named value replaced where it stands; other pairs keep their bytes. */
  const redactPairs = (pairs: string): string =>
    pairs
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        if (eq < 0) return pair;
        const kind = kindOf(decodeFormValue(pair.slice(0, eq)));
        const raw = pair.slice(eq + 1);
        if (!kind || raw === REDACTED || raw === '' || !hides(kind, decodeFormValue(raw))) return pair;
        maskEncoded(raw);
        return `${pair.slice(0, eq + 1)}${REDACTED}`;
      })
      .join('&');

  /**
   * A URL stays a URL: secret-named query (and fragment) values are redacted in place
   * (`http://h/api/x?token=[redacted]`) and a userinfo password is stripped
   * (`http://user@h/`), never the whole URL percent-encoded as if it were a form body.
   */
  const redactUrl = (text: string): string | undefined => {
    const leading = text.length - text.trimStart().length;
    const trimmed = text.trim();
    if (!URL_LIKE.test(trimmed)) return undefined;
    let url = trimmed;
    const userinfo = USERINFO.exec(url);
    if (userinfo) {
      const info = userinfo[2] as string;
      const colon = info.indexOf(':');
      if (colon >= 0) {
        maskEncoded(info.slice(colon + 1));
        url = `${userinfo[1]}${info.slice(0, colon)}@${url.slice(userinfo[0].length)}`;
      }
    }
    const hashAt = url.indexOf('#');
    const beforeHash = hashAt >= 0 ? url.slice(0, hashAt) : url;
    const fragment = hashAt >= 0 ? url.slice(hashAt + 1) : undefined;
    const queryAt = beforeHash.indexOf('?');
    let out = beforeHash;
    if (queryAt >= 0)
      out = `${beforeHash.slice(0, queryAt + 1)}${redactPairs(beforeHash.slice(queryAt + 1))}`;
    // `#access_token=…` (OAuth implicit flow) is a query in all but name.
    if (fragment !== undefined) out = `${out}#${redactPairs(fragment)}`;
    return `${text.slice(0, leading)}${scrubKnown(out)}${text.slice(leading + trimmed.length)}`;
  };

  const redactString = (text: string): string => {
    const trimmed = text.trim();
    // Only a URL with one of these can need more than redactText (a fifth faster on entries
    // of paths and titles). `=` too: a URL whose path holds one (`/x/token=1`) is still a
    // URL, never a form body.
    if (trimmed.includes('?') || trimmed.includes('@') || trimmed.includes('#') || trimmed.includes('=')) {
      const url = redactUrl(text);
      if (url !== undefined) return url;
    }
    // Objects and arrays only: JSON.parse refuses whatever does not end as it began.
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        const redacted = walk(parsed);
        return redacted === parsed ? text : JSON.stringify(redacted);
      } catch (error) {
        // Not JSON, or nested past what the parser can hold: scrub it as text.
        if (!(error instanceof SyntaxError) && !(error instanceof RangeError)) throw error;
      }
    }
    if (trimmed.includes('=') && /^[^\s=&]+=[^\s&]*(&[^\s=&]+=[^\s&]*)*$/.test(trimmed)) {
      const params = new URLSearchParams(trimmed);
      let changed = false;
      for (const [key, value] of params) {
        if (hides(kindOf(key), value)) {
          mask(value);
          params.set(key, REDACTED);
          changed = true;
        }
      }
      if (changed) return params.toString();
    }
    return redactText(text);
  };

  const redactStringOnce = (text: string): string => {
    if (text.length > MEMO_MAX_CHARS) return redactString(text);
    const known = memo.get(text);
    if (known !== undefined) return known;
    const before = seen.size;
    const redacted = redactString(text);
    if (seen.size === before) {
      if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
      memo.set(text, redacted);
    }
    return redacted;
  };

  // Returns the very same value when nothing in it needed redacting: no copies on the hot path.
  // Nesting deeper than MAX_DEPTH is cut (never a stack overflow from hostile input).
  const walk = (value: unknown, depth = 0): unknown => {
    if (typeof value === 'string') return depth > MAX_DEPTH ? TOO_DEEP : redactStringOnce(value);
    if (value === null || typeof value !== 'object') return value;
    if (depth > MAX_DEPTH) return TOO_DEEP;
    // Indexed loops, no forEach closure or for…of: walk runs on every entry, and V8's optimizing
    // compiler spent ~15 ms of background CPU per 220-create run on the other form (issue 22).
    // A hole of a sparse array reads as undefined and stays as it is, as forEach skipped it.
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        const redacted = walk(item, depth + 1);
        if (redacted !== item) {
          copy ??= [...value];
          copy[index] = redacted;
        }
      }
      return copy ?? value;
    }
    const record = value as Record<string, unknown>;
    // HAR-style header/cookie pairs: { name: 'Authorization', value: '...' }
    if (typeof record.name === 'string' && 'value' in record && hides(kindOf(record.name), record.value)) {
      return { ...record, value: maskValue(record.value) };
    }
    let copy: Record<string, unknown> | undefined;
    const keys = Object.keys(record);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      const item = record[key];
      const redacted = hides(kindOf(key), item) ? maskValue(item) : walk(item, depth + 1);
      if (redacted !== item) {
        copy ??= { ...record };
        copy[key] = redacted;
      }
    }
    return copy ?? record;
  };

  return {
    redact<T>(value: T): T {
      catchUp();
      // A second pass only when this value taught us a new secret: it scrubs echoes of it
      // that the first pass had already walked past.
      const known = seen.size;
      const once = walk(value);
      return (seen.size === known ? once : walk(value)) as T;
    },
    redactText: (text) => {
      catchUp();
      return redactText(text);
    },
    remember,
  };
}
