import assert from 'node:assert/strict';
import { analysePayload, defaultSampleEvent, diagnose, maxAnalysedLength, renderPayload, sampleEventWith } from '../../../src/webhooks/model/payload';
import { maxReferences } from '../../../src/webhooks/model/payload/analysis';
import { maxRegexLength, maxReportedProblems } from '../../../src/webhooks/model/payload/diagnostics';
import { clampDiagnosticsDelay } from '../../../src/webhooks/model/payload/diagnosticsDelay';
import { inlineCode } from '../../../src/platform/kit/markdownText';

const sample = defaultSampleEvent();
const codes = (text: string, kind: 'payload' | 'automation' = 'payload') => diagnose(analysePayload(text, kind)).map((diagnostic) => diagnostic.code);

describe('payload analysis limits', () => {
  it('gives a document over the size limit one warning and nothing else', () => {
    const text = `{"a": "${'${nope}'.repeat(Math.ceil(maxAnalysedLength / 7))}"}`;
    const analysis = analysePayload(text, 'payload');
    assert.deepEqual(analysis.references, []);
    const diagnostics = diagnose(analysis);
    assert.equal(diagnostics.length, 1);
    assert.deepEqual([diagnostics[0]!.code, diagnostics[0]!.severity, diagnostics[0]!.start], ['too-large', 'warning', 0]);
    assert.match(diagnostics[0]!.message, /^This file is \d+\.\d MB, too large to analyse \(the limit is 2 MB\)/);
    assert.match(renderPayload(analysis, { sample, maskSecrets: true }).invalid!.message, /not rendered: the file is too large/);
    assert.equal(renderPayload(analysis, { sample, maskSecrets: true }).notRendered, true, 'a payload past a limit has no body to send');
  });

  it('checks a too-deep document up to the bracket that goes too deep, and says so there', () => {
    const deep = '['.repeat(600) + ']'.repeat(600);
    const text = `{"a": "\${nope}", "b": [1,, 2], "c": ${deep}, "d": "\${alsonope}"}`;
    const analysis = analysePayload(text, 'payload');
    assert.deepEqual(
      analysis.references.map((reference) => reference.name),
      ['nope'],
    );
    const diagnostics = diagnose(analysis);
    assert.deepEqual(
      diagnostics.map((diagnostic) => diagnostic.code),
      ['unknown-variable', 'invalid-json', 'too-deep'],
    );
    const tooDeep = diagnostics[2]!;
    assert.equal(tooDeep.start, text.indexOf('[[') + 511);
    assert.equal(tooDeep.message, 'Nested deeper than 512 levels: the rest of this file is not checked.');
    assert.match(renderPayload(analysis, { sample, maskSecrets: true }).invalid!.message, /not rendered: it is nested deeper than 512 levels/);
  });

  it('reads the fields of a too-deep automation that come before the cut', () => {
    const text = `{"event": {"type": "ADD_ARTIFACT_ALIAS", "aliasRegex": "^prod$"}, "payload": {"a": "\${event_type}", "b": ${'{"x":'.repeat(600)}1${'}'.repeat(600)}}}`;
    const analysis = analysePayload(text, 'automation');
    assert.equal(analysis.automation?.event?.aliasRegex?.value, '^prod$');
    assert.deepEqual(
      analysis.references.map((reference) => reference.name),
      ['event_type'],
    );
    assert.deepEqual(codes(text, 'automation'), ['too-deep']);
  });

  it('analyses at most the limit of variables, and says where it stopped', () => {
    const references = Array.from({ length: maxReferences + 5 }, () => '${tag}');
    const text = `{"a": "${references.slice(0, 10).join('')}", "b": "${references.slice(10).join(' ')}"}`;
    const analysis = analysePayload(text, 'payload');
    assert.equal(analysis.references.length, maxReferences);
    const expectedStop = text.lastIndexOf('${') - 4 * '${tag} '.length;
    assert.deepEqual([analysis.limit?.reason, analysis.limit?.start], ['too-many-variables', expectedStop]);
    assert.equal(analysis.limit?.message, 'More than 100,000 variables: the ones from here on are not checked, completed or previewed.');
    assert.match(renderPayload(analysis, { sample, maskSecrets: true }).invalid!.message, /not rendered: it holds more than 100,000 variables/);
    const exactly = `{"a": "${references.slice(5).join(' ')}"}`;
    assert.equal(analysePayload(exactly, 'payload').limit, undefined, 'exactly the limit is fine');
  });

  it('reports at most the limit of problems, then says the rest are not checked', () => {
    const text = `{"a": "${Array.from({ length: 2000 }, (_, index) => `\${unknown_${index}}`).join(' ')}"}`;
    const diagnostics = diagnose(analysePayload(text, 'payload'));
    assert.equal(diagnostics.length, maxReportedProblems + 1);
    const last = diagnostics[diagnostics.length - 1]!;
    assert.equal(last.code, 'too-many-problems');
    assert.equal(text.slice(last.start, last.end), `\${unknown_${maxReportedProblems}}`);
  });

  it('quotes long names cut short in messages', () => {
    const name = 'x'.repeat(5000);
    const [diagnostic] = diagnose(analysePayload(`{"a": "\${${name}}"}`, 'payload'));
    assert.equal(diagnostic!.message, `Unknown variable \`${'x'.repeat(60)}…\`.`);
  });

  it('keeps the spaces that ended an unterminated name outside the braces of its fix', () => {
    const [diagnostic] = diagnose(analysePayload('{"a": "${event_type   "}', 'payload'));
    assert.deepEqual(diagnostic!.fixes, ['${event_type}   ']);
  });
});

describe('automation regular expressions', () => {
  const automation = (regex: string) => JSON.stringify({ event: { type: 'ADD_ARTIFACT_ALIAS', aliasRegex: regex }, payload: {} });

  it('compiles a catastrophic pattern without running it: it is valid', () => {
    assert.deepEqual(codes(automation('(a+)+$'), 'automation'), []);
  });

  it('does not check an expression over the length limit, and says so', () => {
    const diagnostics = diagnose(analysePayload(automation('(a|b)'.repeat(20_000)), 'automation'));
    assert.deepEqual(
      diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.severity]),
      [['regex-too-long', 'warning']],
    );
    assert.equal(diagnostics[0]!.message, `The alias regular expression is 100,000 characters long, too long to check (the limit is ${maxRegexLength.toLocaleString('en-US')}): it is not checked.`);
    assert.deepEqual(codes(automation(`(${'a'.repeat(maxRegexLength - 2)}`), 'automation'), ['regex-invalid'], 'at the limit it is still compiled');
  });
});

describe('rendering limits', () => {
  it('does not render past the size limit when sample values multiply', () => {
    const huge = sampleEventWith('LINK_ARTIFACT', { values: { event_author: 'x'.repeat(1024 * 1024) } });
    const rendered = renderPayload(analysePayload(`{"a": "${'${event_author}'.repeat(10)}"}`, 'payload'), { sample: huge, maskSecrets: true });
    assert.equal(rendered.text, '');
    assert.match(rendered.invalid!.message, /would be larger than 8 MB/);
  });

  it('does not walk a rendering that values made too deep', () => {
    // The quote ends the string, so the brackets after it are structure.
    const brackets = sampleEventWith('LINK_ARTIFACT', { values: { event_author: `"${'['.repeat(100_000)}` } });
    const rendered = renderPayload(analysePayload('{"a": "${event_author}"}', 'payload'), { sample: brackets, maskSecrets: true });
    assert.match(rendered.invalid!.message, /nested deeper than 512 levels/);
  });
});

describe('small guards', () => {
  it('fences inline code one backtick longer than its longest run', () => {
    assert.equal(inlineCode('a``b`c'), '```a``b`c```');
    assert.equal(inlineCode('`x'), '`` `x ``');
    assert.equal(inlineCode('plain'), '`plain`');
    assert.equal(inlineCode('`'.repeat(100_000)).length, 300_004);
  });

  it('holds the diagnostics delay to 50..5000 ms', () => {
    assert.deepEqual([0, -5, 49, 250, 5000, 1e9].map(clampDiagnosticsDelay), [50, 50, 50, 250, 5000, 5000]);
    assert.deepEqual([Number.NaN, Infinity, '100', undefined, null].map(clampDiagnosticsDelay), [250, 250, 250, 250, 250]);
  });
});
