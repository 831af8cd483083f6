/**
 * A repository's results file (`.rlstudio/evals/*.rleval.json`) is somebody else's data. Its Retry
 * must not run a program nobody allowed, fan one retry out into the whole run the file describes,
 * spend a token limit the file picked, send to models nobody chose, or read a file outside the
 * workspace. Driven through the real retry of the report (retryFromResults) against the emulator,
 * counting chat completions at it, with the real dialogs answered and recorded.
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, promises as fs, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TrainingModel } from '../../src/platform/client/types';
import { cacheKey } from '../../src/evals/model/cacheKey';
import type { AnswerRecord, EvalModelRef, EvalParameters, EvalRunFile } from '../../src/evals/model/evalModel';
import type { NamedScorer } from '../../src/platform/scoring/scorerSpec';
import { parseEvalSet } from '../../src/evals/model/evalSet';
import { parseRunFile, serializeRunFile } from '../../src/evals/model/resultsFile';
import { startEmulator, type Emulator } from '../emulator';
import { evalHost, evalServices, FileUri, type EvalTrustHost } from './support/evalTrustHost';

const fixture = join(__dirname, '../../../test/fixtures/evals/arith.evalset.jsonl');
const parameters: EvalParameters = { temperature: 0, seed: 0, n: 2, maxTokens: 512 };

describe('trust: a hostile results file in a cloned repository, retried from its report', function () {
  this.timeout(60_000);
  let emulator: Emulator;
  let dir: string;
  let setup: EvalTrustHost;
  let setText: string;
  let trained: TrainingModel;
  let retry: typeof import('../../src/evals/host/retryFromResults');
  let runsModule: typeof import('../../src/evals/host/evalRuns');

  before(async () => {
    emulator = await startEmulator({ apiKey: 'eval-trust-key' });
    const seeded = emulator.seeded!;
    trained = { id: seeded.trainedModelId, entity: seeded.trainedModelEntity, project: seeded.trainedModelProject, name: seeded.trainedModelName, base_model: '' };
    setText = (await fs.readFile(fixture, 'utf8')).split('\n').slice(0, 6).join('\n') + '\n';
  });

  beforeEach(async () => {
    dir = await fs.realpath(mkdtempSync(join(tmpdir(), 'rl-eval-trust-')));
    await fs.mkdir(join(dir, 'evals'));
    await fs.mkdir(join(dir, '.rlstudio', 'evals'), { recursive: true });
    await fs.writeFile(join(dir, 'evals', 'arith.evalset.jsonl'), setText);
    setup = evalHost(dir);
    retry = require('../../src/evals/host/retryFromResults') as typeof import('../../src/evals/host/retryFromResults');
    runsModule = require('../../src/evals/host/evalRuns') as typeof import('../../src/evals/host/evalRuns');
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  after(async () => emulator?.close());

  const completions = (): number => emulator.requests.filter((request) => request.path.endsWith('/chat/completions')).length;
  const checkpointRef = (step: number, model: Pick<TrainingModel, 'entity' | 'project' | 'name' | 'id'> = trained): EvalModelRef => ({
    id: `wandb-artifact:///${model.entity}/${model.project}/${model.name}:step${step}`,
    label: `step ${step}`,
    kind: 'checkpoint',
    api: 'training',
    step,
    trainingModelId: model.id,
  });

  /**
   * A results file describing a whole run (models × 6 samples × 2 draws) that holds one answer only,
   * failed: the shape of the attack where one Retry planned the whole run.
   */
  async function hostileFile(options: { scorers?: NamedScorer[]; models?: EvalModelRef[]; parameters?: Partial<EvalParameters>; setPath?: string; failed?: number } = {}) {
    const samples = parseEvalSet(setText).samples;
    const models = options.models ?? [checkpointRef(10), checkpointRef(20), checkpointRef(24)];
    const used = { ...parameters, ...options.parameters };
    const failedAnswers: AnswerRecord[] = samples.slice(0, options.failed ?? 1).map((sample) => ({
      model: models[0]!.id,
      sample: sample.id,
      draw: 0,
      key: cacheKey(models[0]!.id, sample, used, 0),
      error: 'Server error (503)',
      scores: {},
    }));
    const failed = failedAnswers[0]!;
    const run: EvalRunFile = {
      kind: 'rl-studio-eval',
      version: 1,
      set: { path: options.setPath ?? 'evals/arith.evalset.jsonl', hash: 'x', samples: samples.length },
      scorers: options.scorers ?? [{ name: 'exact', spec: { kind: 'exactMatch' } }],
      parameters: used,
      models,
      answers: failedAnswers,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const uri = FileUri.file(join(dir, '.rlstudio', 'evals', 'arith.rleval.json'));
    // Written as JSON directly, so bounds the parser does not check reach the retry as a file would.
    await fs.writeFile(uri.fsPath, JSON.stringify(run, null, 2));
    return { uri, failedKey: failed.key, describedAnswers: models.length * samples.length * used.n };
  }

  function retried(uri: FileUri, keys: string[]) {
    return retriedWith(uri, keys, []);
  }

  async function retriedWith(uri: FileUri, keys: string[], answers: Array<boolean | undefined>) {
    const tools = await evalServices(emulator, [trained]);
    tools.dialogs.answerNext(...answers);
    const runs = new runsModule.EvalRuns();
    const before = completions();
    const outcome = await retry.retryFromResults(tools.services, runs, uri as never, { failed: keys });
    const finished = outcome ? await outcome.finished : undefined;
    runs.dispose();
    await tools.client.close();
    return { ...tools, outcome, finished, sent: completions() - before };
  }

  it('a retry of one failed answer of a file describing 36 answers sends exactly 1 request, asking nothing', async () => {
    const { uri, failedKey, describedAnswers } = await hostileFile();
    assert.equal(describedAnswers, 36);
    const { sent, dialogs, finished } = await retried(uri, [failedKey]);
    assert.equal(sent, 1);
    assert.deepEqual(dialogs.asked, [], 'no question for what the person just asked');
    assert.ok(finished);
    const written = parseRunFile(await fs.readFile(uri.fsPath, 'utf8'));
    assert.ok(written.ok);
    assert.equal(written.run.answers.length, 1);
    assert.equal(written.run.answers[0]!.error, undefined);
    assert.ok(
      dialogs.shown.some((message) => /also lacks 35 answers that were never asked; the retry sends only the failed ones/.test(message)),
      'the person learns of the missing answers',
    );
  });

  it('"retry all failed" sends the failed ones only, and keys that did not fail send nothing', async () => {
    const first = await hostileFile();
    assert.equal((await retried(first.uri, [])).sent, 1);
    const { uri } = await hostileFile();
    const none = await retried(uri, ['not-a-key-of-the-file']);
    assert.equal(none.sent, 0);
    assert.equal(none.outcome, undefined);
  });

  it('asking the answers the file lacks first names the requests, the models and max_tokens', async () => {
    const { uri } = await hostileFile();
    const tools = await evalServices(emulator, [trained]);
    tools.dialogs.answerNext(false);
    const before = completions();
    assert.equal(await retry.retryFromResults(tools.services, new runsModule.EvalRuns(), uri as never, { missing: true }), undefined);
    assert.equal(completions() - before, 0);
    const asked = tools.dialogs.asked[0]!;
    assert.equal(asked.kind, 'confirm');
    assert.match(asked.message, /Ask 35 answers arith\.rleval\.json lacks/);
    assert.match(asked.detail ?? '', /35 chat completions, each with max_tokens 512/);
    assert.match(asked.detail ?? '', /to "step 20": "wandb-artifact:\/\/\/.*:step20"/);
    await tools.client.close();
  });

  describe('a command scorer the file names: /bin/sh -c "touch marker"', () => {
    const shellScorer = (marker: string): NamedScorer[] => [
      { name: 'exact', spec: { kind: 'exactMatch' } },
      { name: 'looks harmless', spec: { kind: 'command', command: '/bin/sh', args: ['-c', `touch ${marker}`] } },
    ];

    it('answered no: the modal named the program, its arguments and its directory; no marker, nothing sent', async () => {
      const marker = join(dir, 'marker');
      const { uri, failedKey } = await hostileFile({ scorers: shellScorer(marker) });
      const { sent, dialogs, outcome } = await retriedWith(uri, [failedKey], [false]);
      assert.equal(outcome, undefined);
      assert.equal(sent, 0);
      assert.equal(existsSync(marker), false);
      assert.equal(dialogs.asked.length, 1);
      const asked = dialogs.asked[0]!;
      assert.equal(asked.kind, 'confirm');
      assert.match(asked.message, /Run a program named by arith\.rleval\.json\?/);
      assert.match(asked.detail ?? '', /^Program: "\/bin\/sh"$/m);
      assert.match(asked.detail ?? '', new RegExp(`^Arguments: "-c" "touch ${marker.replace(/[/.]/g, '\\$&')}"$`, 'm'));
      assert.match(asked.detail ?? '', new RegExp(`^Working directory: "${dir.replace(/[/.]/g, '\\$&')}"$`, 'm'));
      assert.match(asked.detail ?? '', /^Scorer: "looks harmless"$/m);
      assert.ok(dialogs.shown.some((message) => /Nothing was sent: you did not allow the program "\/bin\/sh"/.test(message)));
    });

    it('answered yes: it runs; the allowance holds for the file as the run rewrote it, and a file changed by another hand asks again', async () => {
      const marker = join(dir, 'marker');
      // Two failed answers; one of them fails again, so the file the run writes has one to retry.
      const { uri } = await hostileFile({ scorers: shellScorer(marker), failed: 2 });
      const tools = await evalServices(emulator, [trained]);
      const runs = new runsModule.EvalRuns();
      tools.dialogs.answerNext(true);
      emulator.addFault({ kind: 'status', status: 400, path: '/chat/completions', times: 1 });
      const yes = await retry.retryFromResults(tools.services, runs, uri as never, { failed: [] });
      assert.ok(yes);
      const finished = await yes.finished;
      assert.ok(existsSync(marker), 'the allowed program ran');
      const scored = finished?.answers.find((answer) => answer.error === undefined);
      assert.deepEqual(scored?.scores['looks harmless'], { error: 'the scorer printed no number' }, 'it ran: touch prints no number');
      assert.equal(finished?.answers.filter((answer) => answer.error !== undefined).length, 1, 'the fault failed one answer');
      assert.equal(tools.dialogs.asked.length, 1);

      // The file as the run rewrote it is retried without a question.
      rmSync(marker);
      const again = await retry.retryFromResults(tools.services, runs, uri as never, { failed: [] });
      await again!.finished;
      assert.equal(tools.dialogs.asked.length, 1, 'no question for the file as RL Studio wrote it');
      assert.ok(existsSync(marker));
      const kept = tools.services.context.workspaceState.get<string[]>('rlStudio.evals.allowedPrograms');
      assert.equal(kept?.length, 1, 'one allowance, for the content the run wrote last');

      // Another hand changes the file: asked again.
      rmSync(marker);
      const changed = await hostileFile({ scorers: shellScorer(marker) });
      tools.dialogs.answerNext(false);
      assert.equal(await retry.retryFromResults(tools.services, runs, changed.uri as never, { failed: [changed.failedKey] }), undefined);
      assert.equal(tools.dialogs.asked.length, 2);
      assert.equal(existsSync(marker), false);
      runs.dispose();
      await tools.client.close();
    });

    it('in Restricted Mode: refused without a question, nothing sent, nothing run', async () => {
      const marker = join(dir, 'marker');
      const { uri, failedKey } = await hostileFile({ scorers: shellScorer(marker) });
      setup.host.trusted = false;
      const { sent, dialogs, outcome } = await retriedWith(uri, [failedKey], [true, true]);
      assert.equal(outcome, undefined);
      assert.equal(sent, 0);
      assert.equal(existsSync(marker), false);
      assert.equal(dialogs.asked.length, 0);
      assert.ok(dialogs.shown.some((message) => /never runs a program in Restricted Mode/.test(message)));
    });
  });

  it('in Restricted Mode a retry asks first, naming the requests, the model by label and id, and max_tokens', async () => {
    const { uri, failedKey } = await hostileFile();
    setup.host.trusted = false;
    const no = await retriedWith(uri, [failedKey], [false]);
    assert.equal(no.sent, 0);
    const asked = no.dialogs.asked[0]!;
    assert.match(asked.message, /Retry 1 failed answer of arith\.rleval\.json\?/);
    assert.match(asked.detail ?? '', /1 chat completion, each with max_tokens 512/);
    assert.match(asked.detail ?? '', /1 request to "step 10": "wandb-artifact:\/\/\/.*:step10" \(training API\)/);
    assert.match(asked.detail ?? '', /Restricted Mode/);
    assert.deepEqual(asked.choices, ['Send 1 Request']);
    const yes = await retriedWith(uri, [failedKey], [true]);
    assert.equal(yes.sent, 1);
  });

  it('max_tokens 1,000,000 is refused before anything is sent or asked', async () => {
    const { uri, failedKey } = await hostileFile({ parameters: { maxTokens: 1_000_000 } });
    const { sent, dialogs } = await retried(uri, [failedKey]);
    assert.equal(sent, 0);
    assert.deepEqual(dialogs.asked, []);
    assert.ok(dialogs.shown.some((message) => /Nothing was sent: arith\.rleval\.json asks for more than a run may: max_tokens is 1,000,000; it must be a whole number from 1 to 32,768/.test(message)));
  });

  for (const setPath of ['../outside.evalset.jsonl', '..\\outside.evalset.jsonl', '/etc/passwd']) {
    it(`the set path ${JSON.stringify(setPath)} is refused: nothing read, nothing sent`, async () => {
      await fs.writeFile(join(dir, '..', 'outside.evalset.jsonl'), setText).catch(() => undefined);
      const { uri, failedKey } = await hostileFile({ setPath });
      const { sent, dialogs } = await retried(uri, [failedKey]);
      assert.equal(sent, 0);
      assert.ok(
        dialogs.shown.some((message) => /The eval set path ".*" points outside the workspace folder; nothing was read\./.test(message)),
        JSON.stringify(dialogs.shown),
      );
    });
  }

  it('a link in the workspace to a set outside it is refused', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'rl-eval-outside-'));
    await fs.writeFile(join(outside, 'set.evalset.jsonl'), setText);
    symlinkSync(join(outside, 'set.evalset.jsonl'), join(dir, 'evals', 'linked.evalset.jsonl'));
    const { uri, failedKey } = await hostileFile({ setPath: 'evals/linked.evalset.jsonl' });
    const { sent, dialogs } = await retried(uri, [failedKey]);
    rmSync(outside, { recursive: true, force: true });
    assert.equal(sent, 0);
    assert.ok(dialogs.shown.some((message) => /"evals\/linked\.evalset\.jsonl" points outside the workspace folder; nothing was read/.test(message)));
  });

  it('a model the person never chose is named before anything is sent to it', async () => {
    const stranger = checkpointRef(3, { id: 'someone-else', entity: 'someone', project: 'else', name: 'model' });
    const { uri, failedKey } = await hostileFile({ models: [stranger, checkpointRef(10)] });
    const { sent, dialogs } = await retriedWith(uri, [failedKey], [false]);
    assert.equal(sent, 0);
    assert.match(dialogs.asked[0]?.detail ?? '', /named only by the file: "wandb-artifact:\/\/\/someone\/else\/model:step3"/);
  });

  it('a file written by a real run reads back with its command scorer bounded', () => {
    const file = serializeRunFile({
      kind: 'rl-studio-eval',
      version: 1,
      set: { path: 'evals/arith.evalset.jsonl', hash: 'x', samples: 1 },
      scorers: [{ name: 'p', spec: { kind: 'command', command: '/bin/sh', args: Array.from({ length: 65 }, () => 'x') } }],
      parameters,
      models: [],
      answers: [],
      createdAt: '',
      updatedAt: '',
    });
    const parsed = parseRunFile(file);
    assert.equal(parsed.ok, false);
  });
});
