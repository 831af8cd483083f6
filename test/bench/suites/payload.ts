/**
 * Payload language features on a 1 MB payload document: completion latency (p95) against
 * vscode-json-languageservice's doComplete at the same positions, and the time of a full
 * analysis plus diagnostics after an edit.
 */
import { performance } from 'node:perf_hooks';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { analysePayload, complete, defaultSampleEvent, diagnose, type PayloadAnalysis } from '../../../src/payload';
import type { BenchFigure, BenchSuite } from '../report';

const targetBytes = 1024 * 1024;
const completionSamples = 400;
const diagnosticRuns = 40;

/** A realistic large payload: a repository dispatch whose client_payload repeats records of variables. */
function largePayload(): { text: string; cursors: number[] } {
  const records: string[] = [];
  for (let index = 0; records.join(',\n').length < targetBytes - 200; index++) {
    records.push(
      `    {\n      "id": ${index},\n      "title": "Deploy \${artifact_version_string} for \${entity_name}/\${project_name}",\n` +
        `      "author": "\${event_author}",\n      "metrics": { "accuracy": "\${artifact_metadata.accuracy}", "note": "run #${index} \\"ok\\"" },\n` +
        `      "cursor": "\${",\n      "tags": ["a", "b", ${index % 7}, true, null]\n    }`,
    );
  }
  const text = `{\n  "event_type": "BUILD_AND_DEPLOY",\n  "client_payload": {\n  "records": [\n${records.join(',\n')}\n  ]\n  }\n}\n`;
  // Completion positions: just after `${` in the "cursor" strings, spread through the document.
  const cursors: number[] = [];
  for (let at = text.indexOf('"cursor": "${'); at >= 0; at = text.indexOf('"cursor": "${', at + 1)) cursors.push(at + '"cursor": "${'.length);
  const step = Math.max(1, Math.floor(cursors.length / completionSamples));
  return { text, cursors: cursors.filter((_, index) => index % step === 0).slice(0, completionSamples) };
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

export const suite: BenchSuite = {
  name: 'payload language',
  async run(): Promise<BenchFigure[]> {
    const { text, cursors } = largePayload();
    const context = { sample: defaultSampleEvent(), metadataKeys: ['accuracy', 'framework'] };

    // Warm both sides up so the JIT does not count against either.
    let analysis: PayloadAnalysis = analysePayload(text, 'payload');
    for (let i = 0; i < 3; i++) analysis = analysePayload(text, 'payload');
    for (const cursor of cursors.slice(0, 50)) complete(analysis, cursor, context);

    const ours: number[] = [];
    let offered = 0;
    for (const cursor of cursors) {
      const started = performance.now();
      const result = complete(analysis, cursor, context);
      ours.push(performance.now() - started);
      offered += result?.items.length ?? 0;
    }
    if (offered === 0) throw new Error('completion offered nothing at the sampled positions');

    const service = getLanguageService({});
    const document = TextDocument.create('file:///large.payload.json', 'json', 1, text);
    const parsed = service.parseJSONDocument(document);
    for (const cursor of cursors.slice(0, 20)) await service.doComplete(document, document.positionAt(cursor), parsed);
    const theirs: number[] = [];
    for (const cursor of cursors) {
      const position = document.positionAt(cursor);
      const started = performance.now();
      await service.doComplete(document, position, parsed);
      theirs.push(performance.now() - started);
    }

    // After an edit the analysis is redone: time a fresh analysis plus every diagnostic.
    const diagnosticTimes: number[] = [];
    const editedAnalysisTimes: number[] = [];
    let diagnosticCount = 0;
    for (let run = 0; run < diagnosticRuns; run++) {
      const edited = `${text.slice(0, cursors[run % cursors.length])}proj${text.slice(cursors[run % cursors.length])}`;
      const started = performance.now();
      const fresh = analysePayload(edited, 'payload');
      const afterAnalysis = performance.now();
      diagnosticCount = diagnose(fresh, { webhook: { name: 'hook', hasAccessToken: true } }).length;
      diagnosticTimes.push(performance.now() - started);
      const completeStart = performance.now();
      complete(fresh, cursors[run % cursors.length] + 4, context);
      editedAnalysisTimes.push(afterAnalysis - started + (performance.now() - completeStart));
    }

    const sizeNote = `${(text.length / 1024 / 1024).toFixed(2)} MB, ${analysis.references.length} references, ${analysis.strings.starts.length} strings`;
    const ourP95 = percentile(ours, 0.95);
    const theirP95 = percentile(theirs, 0.95);
    return [
      {
        name: 'completion p95 on a 1 MB payload (analysis of the version cached)',
        value: ourP95,
        unit: 'ms',
        better: 'lower',
        goal: { kind: 'absolute', atMost: 2 },
        note: `${cursors.length} positions, ${sizeNote}`,
      },
      {
        name: 'completion p95 against doComplete p95 (at least 5x faster: ratio at most 0.2)',
        value: ourP95,
        unit: 'ms',
        peer: { name: 'vscode-json-languageservice doComplete', value: theirP95 },
        better: 'lower',
        goal: { kind: 'ratio', atMost: 0.2 },
        note: `${(theirP95 / ourP95).toFixed(0)}x faster; both parse once beforehand and answer at the same positions`,
      },
      {
        name: 'full diagnostics after an edit on a 1 MB payload (analysis + diagnose, median)',
        value: percentile(diagnosticTimes, 0.5),
        unit: 'ms',
        better: 'lower',
        goal: { kind: 'absolute', atMost: 30 },
        note: `${diagnosticCount} diagnostics, ${diagnosticRuns} runs, each on a freshly edited text`,
      },
      {
        name: 'full diagnostics after an edit on a 1 MB payload (p95)',
        value: percentile(diagnosticTimes, 0.95),
        unit: 'ms',
        better: 'lower',
        note: 'the slow tail: garbage collection and other processes on the machine land here',
      },
      {
        name: 'first completion after an edit (fresh analysis included, p95)',
        value: percentile(editedAnalysisTimes, 0.95),
        unit: 'ms',
        better: 'lower',
        note: 'what the first keystroke after a change pays once; later requests on the same version use the cached analysis',
      },
    ];
  },
};
