import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeTool } from '../../src/core/invoke-tool.js';
import { createRedactor } from '../../src/core/redact.js';
import { defineTool } from '../../src/core/tool.js';
import { tempDir, tempLedger } from '../helpers.js';
import { workspace } from '../packs/workspace/workspace-fixture.js';

// Built from parts, so no scanner flags this file as holding real keys.
const GITHUB = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
// A real classic token's 36 characters can all be letters (about one in 75 has no digit).
const GITHUB_LETTERS = `ghp_${'QwErTyUiOp'.repeat(3)}AsDfGh`;
const FINE_GRAINED = `github_pat_${'11ABCDEFG0'.repeat(3)}_xyz`;
const ANTHROPIC = `sk-ant-api03-${'Zx9_Yw8-Vu7'.repeat(4)}`;
const OPENAI = `sk-proj-${'q1W2e3R4t5'.repeat(4)}`;
const AWS = `AKIA${'IOSFODNN7EXAMPLE'}`;
const SLACK = `xoxb-${'1234567890'}-${'abcdefABCDEF1234'}`;
const GOOGLE = `AIza${'Sy'}${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6q'}`;
const STRIPE = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
const JWT = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'}`;
const GITLAB = `glpat-${'Ab1Cd2Ef3G'.repeat(2)}`;
const NPM = `npm_${'Ab1Cd2Ef3G'.repeat(3)}xY9zW8`;
const PEM_BODY = `MIIEowIBAAKCAQEA${'s3cr3tK3yMaterial'.repeat(3)}`;
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`;

describe('secrets known by their shape are redacted wherever they stand', () => {
  it('provider tokens and JWTs in prose: masked, and a later bare echo scrubbed by value', () => {
    for (const token of [
      GITHUB,
      FINE_GRAINED,
      ANTHROPIC,
      OPENAI,
      AWS,
      SLACK,
      GOOGLE,
      STRIPE,
      JWT,
      GITLAB,
      NPM,
    ]) {
      const redactor = createRedactor();
      const text = redactor.redactText(`export CI=1\n# use ${token} for the deploy\n`);
      expect(text, token).not.toContain(token);
      expect(text, token).toContain('# use [redacted] for the deploy');
      expect(redactor.redactText(`echo:${token}:`), token).toBe('echo:[redacted]:');
    }
  });

  it('a private key keeps its BEGIN and END lines, never its body, even when cut before END', () => {
    const redactor = createRedactor();
    const text = redactor.redactText(`key:\n${PEM}\nafter`);
    expect(text).toBe('key:\n-----BEGIN RSA PRIVATE KEY-----[redacted]-----END RSA PRIVATE KEY-----\nafter');
    const cut = redactor.redactText(`-----BEGIN OPENSSH PRIVATE KEY-----\n${PEM_BODY.slice(0, 30)}`);
    expect(cut).not.toContain(PEM_BODY.slice(0, 30));
  });

  it("a password inside a URL in prose is masked; the URL's user, host and path stay", () => {
    const redactor = createRedactor();
    const text = redactor.redactText(
      'DATABASE_URL is postgres://app:Pg-s3cret-PASS@db.internal:5432/shop now',
    );
    expect(text).toBe('DATABASE_URL is postgres://app:[redacted]@db.internal:5432/shop now');
    expect(redactor.redactText('pw Pg-s3cret-PASS')).toBe('pw [redacted]');
  });

  it('fields named jwt or auth are secret by name', () => {
    const redactor = createRedactor();
    expect(redactor.redact({ jwt: 'opaque-value-1', auth: 'opaque-value-2', author: 'Ada' })).toEqual({
      jwt: '[redacted]',
      auth: '[redacted]',
      author: 'Ada',
    });
  });

  it('a token with a distinctive prefix is masked even when its body is all letters or all digits', () => {
    for (const token of [GITHUB_LETTERS, `gho_${'7'.repeat(36)}`, `xoxb-${'abcdefghij'.repeat(2)}`]) {
      const redactor = createRedactor();
      expect(redactor.redactText(`token ${token} here`), token).toBe('token [redacted] here');
    }
  });

  it('sk- slugs of letters only are kept however long', () => {
    const redactor = createRedactor();
    const text = 'see sk-learn, sk-lean-slug, sk-learn-model-selection-guide and xoxo-forever-and-always';
    expect(redactor.redactText(text)).toBe(text);
  });

  it('words, numbers, slugs and ids that only resemble a prefix are kept', () => {
    const redactor = createRedactor();
    const text =
      'task-runner sk-learn sk-00000000000000000000000 ghp_short AKIAlower eyJonly.not /api/suites/9007 ' +
      'https://example.test/a:b@c is-skipping risk-assessment-document-for-2026';
    expect(redactor.redactText(text)).toBe(text);
  });
});

describe('a token cut short (a gloss, a result preview, a quote) is still a secret', () => {
  const tokens = [GITHUB, FINE_GRAINED, ANTHROPIC, OPENAI, AWS, SLACK, GOOGLE, STRIPE, JWT, GITLAB];

  it('its head before a cut mark or at the text’s end is masked, at every length from eight characters on', () => {
    for (const token of tokens) {
      const prefix =
        /^(?:[a-z]+_pat_|[a-z]+-(?:ant-|proj-)?|[a-z]+_(?:live_)?|AKIA|AIza|eyJ)/.exec(token)?.[0] ?? '';
      for (let cut = prefix.length + 8; cut < token.length; cut += 3) {
        const head = token.slice(0, cut);
        for (const text of [`use ${head}... for the deploy`, `use ${head}\u2026`, `the key: ${head}`]) {
          const redacted = createRedactor().redactText(text);
          expect(redacted, text).not.toContain(head);
          expect(redacted, text).toContain('[redacted]');
        }
      }
    }
  });

  it('words and slugs that wear a prefix and end a text are kept', () => {
    for (const text of [
      'see the guide at sk-learn-model-selection...',
      'sk-00000000000000000000000',
      'ghp_short...',
      'the field is eyJonly',
      'npm_config_registry',
      'read more: xoxo-forever-and-always…',
    ])
      expect(createRedactor().redactText(text), text).toBe(text);
  });

  it('a tool result cut to its ledger preview keeps no head of a token that straddles the cut', async () => {
    const ledger = tempLedger();
    const run = ledger.startRun({ agent: 'lib', task: 'long result' });
    const long = defineTool({
      name: 'long_text',
      description: 'returns a long text',
      annotations: { readOnly: true },
      inputSchema: z.object({}),
      // The result is previewed in the ledger at 4000 characters: the token starts just before.
      execute: async () => ({ result: { text: `${'x'.repeat(3970)} ${GITHUB} end` } }),
    });
    await invokeTool(long, {}, { recorder: run, failOpen: () => {} });
    const stored = JSON.stringify(run.entries());
    expect(stored).toContain('resultPreview');
    expect(stored).not.toContain(GITHUB.slice(0, 16));
  });
});

describe('the workspace ledger never keeps a secret an agent wrote or edited', () => {
  it('fs_write content, fs_edit strings and its diff are redacted in the ledger file', async () => {
    const root = realpathSync(tempDir('tally-shapes-'));
    writeFileSync(
      join(root, '.env'),
      `OTHER=1\nDATABASE_URL=postgres://app:Pg-s3cret-PASS@db/x\nKEY=${ANTHROPIC}\n`,
    );
    const ledger = tempLedger();
    const { call } = await workspace(root, ledger);
    expect(
      (
        await call('fs_write', {
          path: 'deploy.md',
          content: `token ${GITHUB}\nci ${GITHUB_LETTERS}\n${PEM}\n`,
        })
      ).outcome,
    ).toBe('ok');
    expect(
      (await call('fs_edit', { path: '.env', oldString: 'OTHER=1', newString: `OTHER=${JWT}` })).outcome,
    ).toBe('ok');
    ledger.close();
    const bytes = readFileSync(ledger.path, 'latin1');
    for (const secret of [GITHUB, GITHUB_LETTERS, PEM_BODY, JWT, ANTHROPIC, 'Pg-s3cret-PASS'])
      expect(bytes.includes(secret), secret).toBe(false);
  });
});
