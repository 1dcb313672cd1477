// XML and HTML carry secrets under names prose pairs never see: a secret-named element's text,
// a CSRF meta tag's content, a hidden CSRF input's value. Each is masked where it stands and
// learned, in the ledger's redactor and in a saved HAR alike (one rule, core/redact-markup.ts).
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/core/agent/run-agent.js';
import type { RunEvent } from '../../src/core/agent/run-observer.js';
import { createRedactor, REDACTED } from '../../src/core/redact.js';
import { redactHar } from '../../src/packs/http/captures/redact-har.js';
import { itemAgent } from '../core/agent/fixtures.js';
import { tempLedger } from '../helpers.js';
import { harEntry } from '../packs/http/har-fixtures.js';

/** A model that streams `deltas` as its answer's text, then finishes. */
function streamingModel(deltas: string[]): LanguageModelV3 {
  const parts: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...deltas.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
    { type: 'text-end', id: 't' },
    {
      type: 'finish',
      usage: {
        inputTokens: { total: 7, noCache: 7, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 3, text: 3, reasoning: undefined },
      },
      finishReason: { unified: 'stop', raw: 'stop' },
    },
  ];
  return {
    specificationVersion: 'v3',
    provider: 'test',
    modelId: 'stream',
    supportedUrls: {},
    doGenerate: async () => {
      throw new Error('this model only streams');
    },
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  };
}

describe('secrets in markup', () => {
  it('masks the text of secret-named elements, namespaced and with attributes too', () => {
    const redactor = createRedactor();
    expect(redactor.redactText('<password>hunter2</password>')).toBe(`<password>${REDACTED}</password>`);
    expect(
      redactor.redactText(
        '<login><user>bob</user><apiKey>k-1234567</apiKey>\n<access_token>\n  tok-abcdef\n</access_token></login>',
      ),
    ).toBe(
      `<login><user>bob</user><apiKey>${REDACTED}</apiKey>\n<access_token>\n  ${REDACTED}\n</access_token></login>`,
    );
    expect(redactor.redactText('<wsse:Password Type="PasswordText">Soap-Pw9</wsse:Password>')).toBe(
      `<wsse:Password Type="PasswordText">${REDACTED}</wsse:Password>`,
    );
    // Learned: the value echoed elsewhere is scrubbed too.
    expect(redactor.redactText('login failed for k-1234567 and tok-abcdef')).toBe(
      `login failed for ${REDACTED} and ${REDACTED}`,
    );
  });

  it('masks a secret-named element whose text is a CDATA section, and keeps one that is no secret', () => {
    const redactor = createRedactor();
    expect(redactor.redactText('<password><![CDATA[p<w>&d9]]></password>')).toBe(
      `<password><![CDATA[${REDACTED}]]></password>`,
    );
    expect(redactor.redactText('<soap:ApiKey>\n  <![CDATA[key-77aa]]>\n</soap:ApiKey>')).toBe(
      `<soap:ApiKey>\n  <![CDATA[${REDACTED}]]>\n</soap:ApiKey>`,
    );
    expect(redactor.redactText('<note><![CDATA[a <b> note]]></note>')).toBe(
      '<note><![CDATA[a <b> note]]></note>',
    );
    // Learned: the echo is scrubbed too.
    expect(redactor.redactText('bad key key-77aa')).toBe(`bad key ${REDACTED}`);
  });

  it('reads 100,000 unclosed CDATA sections in one pass (a section to the end of the text per tag would take minutes)', () => {
    const hostile = '<password><![CDATA[x'.repeat(100_000);
    const started = performance.now();
    expect(createRedactor().redactText(hostile)).toBe(hostile);
    // Generous: a linear pass takes milliseconds here; the quadratic one took minutes.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('masks a CSRF meta tag content and a hidden CSRF input value, attribute order and quotes either way', () => {
    const redactor = createRedactor();
    const page = [
      '<meta name="csrf-token" content="meta-tok-1">',
      "<meta content='meta-tok-2' name='csrf-token' />",
      '<input type="hidden" name="_token" value="laravel-3">',
      '<input value="rails-tok-4" type="hidden" name="authenticity_token">',
      "<input type='hidden' name='csrfmiddlewaretoken' value='django-tok-5'>",
      '<input name="csrf" value="plain-csrf-6" type="hidden">',
      '<INPUT TYPE=hidden NAME=csrf_token VALUE=bare-tok-7>',
    ].join('\n');
    const out = redactor.redactText(page);
    for (const secret of [
      'meta-tok-1',
      'meta-tok-2',
      'laravel-3',
      'rails-tok-4',
      'django-tok-5',
      'plain-csrf-6',
      'bare-tok-7',
    ])
      expect(out, secret).not.toContain(secret);
    expect(out).toContain(`<meta name="csrf-token" content="${REDACTED}">`);
    expect(out).toContain(`<meta content='${REDACTED}' name='csrf-token' />`);
    expect(out).toContain(`<input value="${REDACTED}" type="hidden" name="authenticity_token">`);
    expect(out).toContain(`VALUE=${REDACTED}>`);
  });

  it('masks a secret-named value of a property list (a launchd job environment), keeping its settings', () => {
    const redactor = createRedactor();
    const plist = [
      '<dict>',
      '  <key>API_TOKEN</key>',
      '  <string>plist-tok-1</string>',
      '  <key>DB_PASS</key><string>plist-pass-2</string>',
      '  <key>PWD</key><string>/Users/me/app</string>',
      '  <key>Label</key><string>com.me.app</string>',
      '</dict>',
    ].join('\n');
    expect(redactor.redactText(plist)).toBe(
      plist.replace('plist-tok-1', REDACTED).replace('plist-pass-2', REDACTED),
    );
  });

  it('finds them in a page written inside a JSON string or a log line (escaped quotes, <\\/ end tags)', () => {
    const redactor = createRedactor();
    const logged =
      'body="<meta name=\\"csrf-token\\" content=\\"esc-tok-1\\"><input value=\\"esc-tok-2\\" name=\\"_token\\"><password>esc-pw-3<\\/password>"';
    const out = redactor.redactText(logged);
    for (const secret of ['esc-tok-1', 'esc-tok-2', 'esc-pw-3']) expect(out, secret).not.toContain(secret);
    expect(out).toContain(`content=\\"${REDACTED}\\"`);
  });

  it('keeps what is no secret: other elements and inputs, a parameter name, a setting under pwd, a bare <', () => {
    const redactor = createRedactor();
    const page = [
      '<meta name="csrf-param" content="authenticity_token">',
      '<meta name="_csrf_header" content="X-CSRF-TOKEN">',
      '<input type="text" name="title" value="Quarterly plan">',
      '<name>alice</name><token_type>bearer</token_type><pwd>/home/me/project</pwd>',
      'if a < b and <b>bold</b>',
    ].join('\n');
    expect(redactor.redactText(page)).toBe(page);
    // The parameter and header names were not learned as secrets.
    const names = 'send the authenticity_token field and the X-CSRF-TOKEN header';
    expect(redactor.redactText(names)).toBe(names);
  });

  it('a saved HAR loses the page tokens and an XML body password, and their echoes elsewhere', () => {
    const page = harEntry('GET', 'http://127.0.0.1:4010/projects/new', 200);
    page.response.content = {
      mimeType: 'text/html',
      text: '<html><head><meta content="HarMetaTok9" name="csrf-token"></head><body><form><input value="HarInputTok9" name="authenticity_token" type="hidden"><input name="otp" value="918273"></form></body></html>',
    };
    const soap = harEntry('POST', 'http://127.0.0.1:4010/soap', 200, { response: { echoed: 'HarMetaTok9' } });
    soap.request.postData = {
      mimeType: 'text/xml',
      text: '<Envelope><Body><Login><user>bob</user><password>XmlPass-77</password></Login></Body></Envelope>',
    };
    const saved = JSON.stringify(redactHar({ log: { entries: [page, soap] } }));
    for (const secret of ['HarMetaTok9', 'HarInputTok9', '918273', 'XmlPass-77'])
      expect(saved, secret).not.toContain(secret);
    expect(saved).toContain('<user>bob</user>');
    expect(saved).toContain('name=\\"authenticity_token\\"');
  });

  it('scans hostile markup in linear time (a hang guard, not a benchmark)', () => {
    const redactor = createRedactor();
    for (const text of [
      '<password>'.repeat(40_000),
      `<meta name="csrf-token" ${'a="b" '.repeat(30_000)}`,
      '<input '.repeat(40_000),
      '<key>a</key> '.repeat(20_000),
      `<key>token</key><string>${'s'.repeat(100_000)}`,
      `<meta ${'a'.repeat(100_000)}>`,
      `<input name="csrf" ${'v'.repeat(100_000)}>`,
      `<input name=\\"csrf\\" ${'\\"'.repeat(50_000)}>`,
      `<password>${'x'.repeat(100_000)}<\\/pass`,
      `<a ${'x'.repeat(200_000)}`,
    ]) {
      const started = performance.now();
      redactor.redactText(text);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it('Security: a streamed answer never shows a secret element or plist value on a line of its own', async () => {
    const ledger = tempLedger();
    const events: RunEvent[] = [];
    const result = await runAgent(itemAgent({ requireFinish: false }).agent, 'Show the config', {
      ledger,
      model: streamingModel([
        'Here it is:\n<config>\n  <password>\n',
        '    xml-pw-1234\n',
        '  </password>\n</config>\n<dict>\n  <key>API_TOKEN</key>\n',
        '  <string>',
        'plist-tok-5678</string>\n  <key>Label</key>\n  <string>com.me.app</string>\n</dict>\nDone.',
      ]),
      onEvent: (event) => events.push(event),
    });
    const deltas = events.flatMap((event) => (event.type === 'model-text-delta' ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    for (const delta of deltas) expect(delta).not.toMatch(/xml-pw-1234|plist-tok-5678/);
    expect(deltas.join('')).toContain('<string>com.me.app</string>');
    expect(result.text).not.toMatch(/xml-pw-1234|plist-tok-5678/);
    expect(JSON.stringify(ledger.entries(result.runId))).not.toMatch(/xml-pw-1234|plist-tok-5678/);
  });
});
