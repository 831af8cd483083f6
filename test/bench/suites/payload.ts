/**
 * Payload language features on a 1 MB payload document, each against vscode-json-languageservice
 * doing the same job on the same text:
 *  - a keystroke: one character typed after `${`, then the suggestions at the new cursor, the way
 *    the completion provider gets them (PayloadDocuments.completionsAt): completeAfterEdit from the
 *    analysis of the version before the keystroke, and a fresh analysis only when it cannot answer
 *    (counted, and reported), against parseJSONDocument + doComplete on the same edited text at the
 *    same offset;
 *  - completion on a version already analysed, against doComplete on a document already parsed;
 *  - diagnostics after an edit (analysis + diagnose), against parseJSONDocument + doValidation.
 * The two sides take turns (ours, theirs, theirs, ours) at the same positions, so that load from
 * elsewhere on the machine and garbage left by one side hit both alike.
 */
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { analysePayload, complete, completeAfterEdit, defaultSampleEvent, diagnose, type PayloadContext } from '../../../src/webhooks/model/payload';
import type { BenchFigure, BenchSuite } from '../report';
import { median, percentile } from '../stats';
import { timeAlternately } from '../timing';

const targetBytes = 1024 * 1024;
const completionSamples = 400;
/** Rounds of ours, theirs, theirs, ours for the tasks that analyse the whole text anew. */
const editRounds = 15;
const peerName = 'vscode-json-languageservice';

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

/** The same edits for both sides: the n-th call of either gets the n-th edit. */
function editSequence(text: string, cursors: number[]): () => { edited: string; cursor: number } {
  let calls = 0;
  return () => {
    const at = cursors[(calls++ * 37) % cursors.length]!;
    // One keystroke: `p` typed after `${`; the suggestions are asked for just after it.
    return { edited: `${text.slice(0, at)}p${text.slice(at)}`, cursor: at + 1 };
  };
}

export const suite: BenchSuite = {
  name: 'payload language',
  async run(): Promise<BenchFigure[]> {
    const { text, cursors } = largePayload();
    const context: PayloadContext = { sample: defaultSampleEvent(), metadataKeys: ['accuracy', 'framework'] };
    const service = getLanguageService({});
    const webhook = { webhook: { name: 'hook', hasAccessToken: true } };

    // Completion on a version already analysed (ours) or parsed (theirs), at 400 positions.
    const analysis = analysePayload(text, 'payload');
    const document = TextDocument.create('file:///large.payload.json', 'json', 1, text);
    const parsed = service.parseJSONDocument(document);
    let offered = 0;
    // Each side walks the same positions in the same order.
    let ourPosition = 0;
    let theirPosition = 0;
    const cached = await timeAlternately(
      () => (offered += complete(analysis, cursors[ourPosition++ % cursors.length]!, context)?.items.length ?? 0),
      () => service.doComplete(document, document.positionAt(cursors[theirPosition++ % cursors.length]!), parsed),
      Math.ceil(cursors.length / 2),
      50,
    );
    if (offered === 0) throw new Error('completion offered nothing at the sampled positions');

    // A keystroke: the suggestions at the new cursor, from the analysis of the version before it when
    // the edit allows (as in the editor, where that analysis is cached), else from the edited text
    // analysed anew; the peer parses the edited text anew.
    let keystrokeItems = 0;
    let reanalysed = 0;
    const ourEdit = editSequence(text, cursors);
    const theirEdit = editSequence(text, cursors);
    const keystroke = await timeAlternately(
      () => {
        const { edited, cursor } = ourEdit();
        const followed = completeAfterEdit(analysis, edited, cursor, context);
        if (!followed) reanalysed++;
        const completions = followed ? followed.completions : complete(analysePayload(edited, 'payload'), cursor, context);
        keystrokeItems += completions?.items.length ?? 0;
      },
      async () => {
        const { edited, cursor } = theirEdit();
        const editedDocument = TextDocument.create('file:///large.payload.json', 'json', 2, edited);
        await service.doComplete(editedDocument, editedDocument.positionAt(cursor), service.parseJSONDocument(editedDocument));
      },
      editRounds,
      2,
    );
    if (keystrokeItems === 0) throw new Error('completion after a keystroke offered nothing');

    // A keystroke whose suggestions cannot come from an earlier analysis (the first request on a
    // file just opened, or an edit the cached analysis cannot follow): the edited text analysed anew.
    let uncachedItems = 0;
    const ourUncachedEdit = editSequence(text, cursors);
    const theirUncachedEdit = editSequence(text, cursors);
    const uncached = await timeAlternately(
      () => {
        const { edited, cursor } = ourUncachedEdit();
        uncachedItems += complete(analysePayload(edited, 'payload'), cursor, context)?.items.length ?? 0;
      },
      async () => {
        const { edited, cursor } = theirUncachedEdit();
        const editedDocument = TextDocument.create('file:///large.payload.json', 'json', 2, edited);
        await service.doComplete(editedDocument, editedDocument.positionAt(cursor), service.parseJSONDocument(editedDocument));
      },
      editRounds,
      2,
    );
    if (uncachedItems === 0) throw new Error('completion on a text analysed anew offered nothing');

    // Every diagnostic of the edited text, analysed (parsed) anew.
    let diagnosticCount = 0;
    let theirDiagnosticCount = 0;
    const ourDiagnosticEdit = editSequence(text, cursors);
    const theirDiagnosticEdit = editSequence(text, cursors);
    const diagnostics = await timeAlternately(
      () => (diagnosticCount = diagnose(analysePayload(ourDiagnosticEdit().edited, 'payload'), webhook).length),
      async () => {
        const editedDocument = TextDocument.create('file:///large.payload.json', 'json', 2, theirDiagnosticEdit().edited);
        theirDiagnosticCount = (await service.doValidation(editedDocument, service.parseJSONDocument(editedDocument))).length;
      },
      editRounds,
      2,
    );

    const sizeNote = `${(text.length / 1024 / 1024).toFixed(2)} MB, ${analysis.references.length} references, ${analysis.strings.starts.length} strings`;
    const editNote = `${keystroke.ours.length} alternating runs each, each on a freshly edited text`;
    return [
      {
        name: 'keystroke to suggestions on a 1 MB payload (completion after the edit, median)',
        value: median(keystroke.ours),
        unit: 'ms',
        peer: { name: `${peerName} parseJSONDocument + doComplete`, value: median(keystroke.theirs) },
        better: 'lower',
        // At least 5x faster.
        goal: { kind: 'ratio', atMost: 0.2 },
        note: `${(median(keystroke.theirs) / median(keystroke.ours)).toFixed(1)}x faster; ${editNote}, same edited text and offset on both sides; ours from the analysis of the text before the keystroke (as cached in the editor) plus the edit, the text analysed anew in ${reanalysed} of ${keystroke.ours.length} runs`,
      },
      {
        name: 'keystroke to suggestions on a 1 MB payload (p95)',
        value: percentile(keystroke.ours, 0.95),
        unit: 'ms',
        peer: { name: `${peerName} parseJSONDocument + doComplete`, value: percentile(keystroke.theirs, 0.95) },
        better: 'lower',
        note: 'the slow tail: garbage collection and other processes on the machine land here',
      },
      {
        name: 'keystroke to suggestions on a 1 MB payload, no earlier analysis to follow (median)',
        value: median(uncached.ours),
        unit: 'ms',
        peer: { name: `${peerName} parseJSONDocument + doComplete`, value: median(uncached.theirs) },
        better: 'lower',
        goal: { kind: 'ratio', atMost: 0.2 },
        note: `${(median(uncached.theirs) / median(uncached.ours)).toFixed(1)}x faster; the whole text analysed anew on every run (a file just opened, or an edit the cached analysis cannot follow): analysis collects every reference and string for diagnostics too, where the peer only parses; ${editNote}`,
      },
      {
        name: 'completion p95 on a 1 MB payload (analysis of the version cached)',
        value: percentile(cached.ours, 0.95),
        unit: 'ms',
        peer: { name: `${peerName} doComplete on the document parsed beforehand`, value: percentile(cached.theirs, 0.95) },
        better: 'lower',
        goal: { kind: 'absolute', atMost: 2 },
        note: `${cached.ours.length} runs at ${cursors.length} positions, ${sizeNote}; later requests on the same version use the cached analysis`,
      },
      {
        name: 'full diagnostics after an edit on a 1 MB payload (analysis + diagnose, median)',
        value: median(diagnostics.ours),
        unit: 'ms',
        peer: { name: `${peerName} parseJSONDocument + doValidation`, value: median(diagnostics.theirs) },
        better: 'lower',
        goal: { kind: 'absolute', atMost: 30 },
        note: `${diagnosticCount} diagnostics (the peer, with no schema, finds ${theirDiagnosticCount}); ${editNote}`,
      },
      {
        name: 'full diagnostics after an edit on a 1 MB payload (p95)',
        value: percentile(diagnostics.ours, 0.95),
        unit: 'ms',
        peer: { name: `${peerName} parseJSONDocument + doValidation`, value: percentile(diagnostics.theirs, 0.95) },
        better: 'lower',
        note: 'the slow tail: garbage collection and other processes on the machine land here',
      },
    ];
  },
};
