/**
 * Secrets known by their shape rather than by a name beside them: provider tokens, private
 * keys, JWTs, a password inside a URL in prose. A file written by an agent, a diff, a grep
 * match or an error message carries them bare (`GITHUB_TOKEN=` is not needed for `ghp_…` to be
 * one), so every text the redactor scrubs is searched for these too.
 */

/** One cheap test first: most texts hold none of these prefixes. */
const ANY_SHAPE =
  /-----BEGIN|gh[pousr]_|github_pat_|glpat-|npm_|sk-|AKIA|ASIA|xox[abposr]-|AIza|_live_|_test_|eyJ|:\/\/[^\s/@:]*:[^\s/@]*@/;

/** Token shapes: each match is a secret whole. */
const TOKENS = new RegExp(
  [
    // GitHub: classic (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained tokens.
    String.raw`\bgh[pousr]_[A-Za-z0-9]{30,255}\b`,
    String.raw`\bgithub_pat_[A-Za-z0-9_]{22,255}\b`,
    // GitLab personal access tokens; npm access tokens.
    String.raw`\bglpat-[A-Za-z0-9_-]{20,}`,
    String.raw`\bnpm_[A-Za-z0-9]{36}\b`,
    // Anthropic, OpenAI (project, service-account, admin and legacy keys).
    String.raw`\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`,
    // AWS access key ids.
    String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
    // Slack tokens.
    String.raw`\bxox[abposr]-[A-Za-z0-9-]{10,}`,
    // Google API keys.
    String.raw`\bAIza[0-9A-Za-z_-]{35}`,
    // Stripe secret and restricted keys.
    String.raw`\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}`,
    // JSON Web Tokens: header and payload are base64url JSON objects.
    String.raw`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`,
  ].join('|'),
  'g',
);

/**
 * The head of a token that a cut ended (`ghp_1234abcd…`, `eyJhbGciOi...`): a gloss, a result
 * preview or a model's quote shortens a text, and a token cut short no longer has the length
 * its whole shape needs. Its prefix and at least eight characters (a dot only between two, as in
 * a JWT, never the cut mark's), then a cut mark or the text's end, are a secret's head: masked,
 * since even part of a key narrows the guess.
 */
const CUT_TOKEN =
  /\b(?:gh[pousr]_|github_pat_|glpat-|sk-(?:ant-|proj-|svcacct-|admin-)?|AKIA|ASIA|xox[abposr]-|AIza|(?:sk|rk)_(?:live|test)_|eyJ)(?:[A-Za-z0-9_-]|\.(?=[A-Za-z0-9_-])){8,}?(?=\.\.\.|\u2026|$)/g;

/** A PEM private key, to its END line (or the text's end when it was cut). */
const PRIVATE_KEY =
  /-----BEGIN ([A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?)-----(?:[\s\S]*?-----END \1-----|[\s\S]*$)/g;

/** `scheme://user:password@host` anywhere in a text: the password part. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/@:]*):([^\s/@]+)@/gi;

/**
 * Prefixes that ordinary text also starts with: `sk-` (`sk-learn`, `sk-lean-slug`, a Slovak
 * `sk-` locale slug) and `xoxo-` (the English sign-off, in slugs like `xoxo-forever-and-always`).
 * Only these need the body test below; their real keys are random and always hold both letters
 * and digits (OpenAI and Anthropic keys; Slack tokens carry numeric team and user ids). Every
 * other prefix (`ghp_`, `github_pat_`, `xoxb-`, `AKIA`, `AIza`, `sk_live_`, `eyJ…`) is no word's
 * beginning, and a real key of that shape can be all letters (a `ghp_` body is 36 random
 * characters of 62; AWS ids are base32), so it is a secret by shape alone.
 */
const AMBIGUOUS_PREFIX = /^(?:sk-|xoxo-)/;

/** A token whose body (after its prefix) is all letters or all digits is a word or a number, not a key. */
function looksRandom(token: string): boolean {
  const body = token.slice(token.search(/[-_]/) + 1);
  return /[0-9]/.test(body) && /[A-Za-z]/.test(body);
}

/** Security: the letters-and-digits test spares words only where a word can wear the prefix. */
function isSecretToken(token: string): boolean {
  return !AMBIGUOUS_PREFIX.test(token) || looksRandom(token);
}

/**
 * `text` with every secret of a known shape replaced: a token or a URL's password by what
 * `mask` returns (which also remembers it, so a later echo anywhere is scrubbed by value), a
 * private key's body by `label` (its lines are not worth remembering one by one).
 */
export function scrubSecretShapes(
  text: string,
  mask: (secret: string) => string,
  label: (secret: string) => string,
): string {
  if (!ANY_SHAPE.test(text)) return text;
  let out = text.replace(
    PRIVATE_KEY,
    (block, kind: string) => `-----BEGIN ${kind}-----${label(block)}-----END ${kind}-----`,
  );
  out = out.replace(TOKENS, (token) => (isSecretToken(token) ? mask(token) : token));
  out = out.replace(CUT_TOKEN, (head) => (isSecretToken(head) ? mask(head) : head));
  out = out.replace(URL_PASSWORD, (whole, head: string, password: string) =>
    password.startsWith('[redacted') ? whole : `${head}:${mask(password)}@`,
  );
  return out;
}
