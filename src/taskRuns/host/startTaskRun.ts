import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../../platform/host/services';
import type { RememberedModel } from '../../platform/host/rememberedItems';
import { contentDigest, quoted, urlLines } from '../../platform/kit/confirmationText';
import { allowNamedPrograms, readEvalSet, resolveWorkspacePath, type EvalSample } from '../../evals';
import { programsOf } from '../../platform/scoring/programScorers';
import type { RegisteredViews } from '../../training';
import { runStateFileName, type RunState } from '../model/runState';
import { readRunFile } from './runFiles';
import { taskFileStem } from './taskFileNames';
import { parseTaskFile, type Task } from '../model/taskFile';
import { planTask, RunBudget } from '../model/taskPlan';
import { TaskLoop } from '../model/taskLoop';
import { describeCurrent } from '../model/dashboardModel';
import { loopDependencies } from './taskRunner';

/** Task files read at most: a task is a page of JSON. */
const maxTaskFileBytes = 256 * 1024;

interface ActiveRun {
  stop: AbortController;
  folder: vscode.Uri;
}

/**
 * Starting, resuming and stopping runs from task files: the file read and checked, its sets read
 * from the workspace (paths that leave it are refused), the model found or (with the person's
 * word) created, a confirmation stating the model, the steps, the requests and tokens it spends at
 * most, the budget and the platform's addresses; then the loop, one per task file, with its
 * progress in a notification whose Cancel stops it cleanly.
 */
export class TaskRuns implements vscode.Disposable {
  private readonly active = new Map<string, ActiveRun>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** Fires with a run folder when a run starts or ends. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly services: Services,
    private readonly sidebar: () => RegisteredViews,
    private readonly showDashboard: (folder: vscode.Uri) => void,
  ) {}

  /** The run going for a run folder, if one is. */
  running(folder: vscode.Uri): ActiveRun | undefined {
    return [...this.active.values()].find((run) => run.folder.toString() === folder.toString());
  }

  /** Starts (or resumes) the run of a task file after its confirmation; resolves when it ends, with the run as written. */
  async start(taskUri: vscode.Uri): Promise<RunState | undefined> {
    const dialogs = this.services.dialogs;
    const key = taskUri.toString();
    if (this.active.has(key)) {
      dialogs.info(`${path.posix.basename(taskUri.path)} is running already: Stop Training Run stops it.`);
      return undefined;
    }
    const prepared = await this.prepare(taskUri);
    if (!prepared) return undefined;
    const { task, prompts, heldOut, model, folder, existing, programs, programFolder } = prepared;
    const plan = planTask(task, heldOut.length);
    const trained = existing ? existing.steps.filter((step) => step.phase === 'trained').length : 0;
    const settings = this.services.settings.current;
    const judged = task.reward.kind === 'relativeJudge' || (task.reward.kind === 'scorer' && task.reward.spec.kind === 'judge');
    const detail = [
      `${existing ? `Resumes the run "${task.name}" after step ${trained} of ${task.steps}` : `Trains ${String(model.name || model.id)} for ${task.steps} step${task.steps === 1 ? '' : 's'}`}: each step asks ${Math.min(task.promptsPerStep, prompts.length)} prompts of ${task.prompts} for ${task.groupSize} answers (temperature ${task.sampling.temperature}, at most ${task.sampling.maxTokens} tokens each), rewards them by ${describeReward(task)}, and trains the model on the groups with a signal${task.keepNoSignalGroups ? ' and the others' : ''}.`,
      `Model: ${String(model.name || model.id)} (id ${model.id}).`,
      task.heldOut
        ? `Held-out: ${heldOut.length} prompts of ${task.heldOut}, before the first step and every ${task.evaluateEvery} step${task.evaluateEvery === 1 ? '' : 's'} (${plan.heldOutEvaluations} evaluations).`
        : 'No held-out set.',
      `At most ${plan.requests.toLocaleString('en-US')} requests (${plan.samplingRequests.toLocaleString('en-US')} to sample, ${plan.rewardRequests.toLocaleString('en-US')} to reward, ${plan.heldOutRequests.toLocaleString('en-US')} held-out) and ${plan.completionTokens.toLocaleString('en-US')} completion tokens, with retries after a 429 and the prompts' tokens on top; ${task.steps} training jobs.`,
      `Budget: ${task.budget.requests.toLocaleString('en-US')} requests and ${task.budget.tokens.toLocaleString('en-US')} tokens${existing ? ` (${existing.spent.requests.toLocaleString('en-US')} requests spent already)` : ''}; the run stops when it is spent.`,
      ...urlLines('Training API', settings.trainingApiUrl),
      ...(judged ? urlLines('Inference API (the judge)', settings.inferenceApiUrl) : []),
      `Files: ${vscode.workspace.asRelativePath(folder)}`,
    ].join('\n');
    if (!(await dialogs.confirm(existing ? `Resume training run "${task.name}"?` : `Start training run "${task.name}"?`, this.services.log.redact(detail), existing ? 'Resume Run' : 'Start Run')))
      return undefined;

    const budget = new RunBudget(task.budget);
    const wired = loopDependencies(this.services, task, { folder, model, heldOut, programs, programFolder }, budget, this.sidebar);
    const loop = new TaskLoop(task, prompts, budget, wired.deps, {
      taskPath: vscode.workspace.asRelativePath(taskUri, false),
      modelId: model.id,
      modelName: String(model.name || model.id),
      ...(existing ? { existing } : {}),
    });
    const stop = new AbortController();
    const done = Promise.resolve(
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Training run "${task.name}"`, cancellable: true }, async (progress, token) => {
        token.onCancellationRequested(() => stop.abort());
        const timer = setInterval(() => progress.report({ message: `${describeCurrent(loop.current)} ${loop.current.spent.requests.toLocaleString('en-US')} requests.` }), 1_000);
        try {
          return await loop.run(stop.signal);
        } finally {
          clearInterval(timer);
        }
      }),
    );
    this.active.set(key, { stop, folder });
    this.changed.fire(folder);
    this.showDashboard(folder);
    try {
      const state = await done;
      this.tell(state, folder);
      return state;
    } finally {
      wired.dispose();
      this.active.delete(key);
      this.changed.fire(folder);
    }
  }

  /** Stops the run whose files are in `folder`; false when none is going there. */
  stopFolder(folder: vscode.Uri): boolean {
    const run = this.running(folder);
    run?.stop.abort();
    return run !== undefined;
  }

  /** Stops the run of a task file (or the only one going): the step in flight keeps what it wrote. */
  stop(taskUri?: vscode.Uri): boolean {
    const run = taskUri ? this.active.get(taskUri.toString()) : this.active.size === 1 ? [...this.active.values()][0] : undefined;
    if (!run) return false;
    run.stop.abort();
    return true;
  }

  dispose(): void {
    for (const run of this.active.values()) run.stop.abort();
    this.changed.dispose();
  }

  private tell(state: RunState, folder: vscode.Uri): void {
    const where = vscode.workspace.asRelativePath(folder);
    const last = state.heldOut.at(-1);
    const first = state.heldOut[0];
    const heldOut = last && first && last !== first ? ` Held-out score ${first.mean.toFixed(3)} → ${last.mean.toFixed(3)}.` : '';
    const spent = ` ${state.spent.requests.toLocaleString('en-US')} requests spent.`;
    if (state.status === 'finished') this.services.dialogs.info(`Training run "${state.name}" finished: ${state.steps.length} steps.${heldOut}${spent} Files in ${where}.`);
    else if (state.status === 'stopped')
      this.services.dialogs.info(`Training run "${state.name}" stopped after step ${state.steps.filter((step) => step.phase === 'trained').length}: start it again to resume from its files.${spent}`);
    else if (state.status === 'failed' && state.failure)
      this.services.dialogs.error(
        this.services.log.redact(
          `Training run "${state.name}" failed at step ${state.failure.step}: ${quoted(state.failure.message, 500)}. Everything done so far is in ${where}; start it again to resume.`,
        ),
      );
  }

  /** The task, its prompts, the model and the run folder; undefined (having said why) when the task cannot run. */
  private async prepare(
    taskUri: vscode.Uri,
  ): Promise<
    { task: Task; prompts: EvalSample[]; heldOut: EvalSample[]; model: RememberedModel; folder: vscode.Uri; programs: ReadonlySet<string>; programFolder: string; existing?: RunState } | undefined
  > {
    const dialogs = this.services.dialogs;
    const name = path.posix.basename(taskUri.path);
    try {
      if ((await vscode.workspace.fs.stat(taskUri)).size > maxTaskFileBytes) throw new Error(`${name} is larger than ${maxTaskFileBytes / 1024} KB: not a task file`);
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(taskUri));
      const parsed = parseTaskFile(text, taskFileStem(taskUri));
      const task = parsed.task;
      if (!task) {
        const first = parsed.problems.find((problem) => problem.severity === 'error');
        dialogs.error(`${name} cannot run: ${first?.path ? `${first.path}: ` : ''}${first?.message ?? 'it is not a task'}. The Problems view lists what to fix; nothing was sent.`);
        return undefined;
      }
      const folder = vscode.workspace.getWorkspaceFolder(taskUri)?.uri;
      if (!folder) throw new Error(`${name} is not in a workspace folder`);
      const base = vscode.Uri.joinPath(taskUri, '..');
      const promptsUri = await resolveWorkspacePath(base, task.prompts, 'prompts file');
      const prompts = (await readEvalSet(promptsUri)).samples;
      if (prompts.length === 0) throw new Error(`${task.prompts} has no prompt`);
      const heldOut = task.heldOut ? (await readEvalSet(await resolveWorkspacePath(base, task.heldOut, 'held-out file'))).samples : [];
      // A command reward is a program the task file names: it runs only once allowed, never in Restricted Mode.
      let programs: ReadonlySet<string> = new Set();
      if (task.reward.kind === 'scorer' && task.reward.spec.kind === 'command') {
        const uses = programsOf([{ name: 'reward', spec: task.reward.spec }], base.fsPath);
        const allowed = await allowNamedPrograms(this.services, uses, { label: name, digest: contentDigest(text), kind: 'task file' });
        if ('refused' in allowed) {
          dialogs.error(allowed.refused);
          return undefined;
        }
        programs = allowed.allowed.identities;
      }
      const model = await this.findModel(task);
      if (!model) return undefined;
      const runFolder = vscode.Uri.joinPath(folder, '.rlstudio', 'runs', task.name);
      const existing = await readExisting(runFolder);
      if (existing && existing.modelId !== model.id)
        throw new Error(`the run folder ${vscode.workspace.asRelativePath(runFolder)} holds a run of another model (${existing.modelName}): rename the task's "name" to start a new run`);
      if (existing?.status === 'finished') {
        dialogs.info(`The run "${task.name}" finished already (${existing.steps.length} steps): give the task another "name" to run again, or raise its "steps" to go on.`);
        if (existing.steps.length >= task.steps) return undefined;
      }
      return { task, prompts, heldOut, model, folder: runFolder, programs, programFolder: base.fsPath, ...(existing ? { existing } : {}) };
    } catch (error) {
      dialogs.error(`${name} cannot run: ${this.services.describeFailure(error).message} Nothing was sent.`);
      return undefined;
    }
  }

  /** The task's model among the followed ones, or created from its base model once the person said so. */
  private async findModel(task: Task): Promise<RememberedModel | undefined> {
    const [entity, project, name] = task.model.split('/');
    const followed = this.services.remembered.models.list().find((model) => model.entity === entity && model.project === project && model.name === name);
    if (followed) return followed;
    if (!task.baseModel) {
      this.services.dialogs.error(`The task's model ${task.model} is not in the Models view: add it there, or give the task a "baseModel" to create it. Nothing was sent.`);
      return undefined;
    }
    const yes = await this.services.dialogs.confirm(
      `Create the model ${task.model}?`,
      [
        `The task trains ${task.model}, which is not in the Models view. It is created from ${task.baseModel} (or taken as it is, if the platform has it already).`,
        ...urlLines('Training API', this.services.settings.current.trainingApiUrl),
      ].join('\n'),
      'Create Model',
    );
    if (!yes) return undefined;
    const client = await this.services.client();
    const model = await client.training.createModel({ entity: entity!, project: project!, name: name!, base_model: task.baseModel, return_existing: true });
    await this.services.remembered.models.add(model);
    return this.services.remembered.models.get(model.id);
  }
}

async function readExisting(folder: vscode.Uri): Promise<RunState | undefined> {
  const read = await readRunFile(folder);
  if ('state' in read) return read.state;
  if (read.missing) return undefined;
  throw new Error(`${vscode.workspace.asRelativePath(folder)}/${runStateFileName} is not a run file RL Studio can resume (${read.problem}): move it aside to start afresh`);
}

function describeReward(task: Task): string {
  if (task.reward.kind === 'relativeJudge') return `a judge (${task.reward.model}) ranking each group's answers against each other`;
  const spec = task.reward.spec;
  if (spec.kind === 'command') return `the program ${quoted(spec.command, 200)} (allowed just before)`;
  return spec.kind === 'judge' ? `a judge (${spec.model})` : spec.kind === 'exactMatch' ? 'exact match with the reference' : spec.kind;
}
