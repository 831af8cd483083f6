/**
 * "Try a Reward…": re-scores a trajectory file (or a Parquet log of the official client) with a
 * reward chosen here and shows the comparison with the rewards it holds (rewardTrialPanel.ts).
 * The built-in scorers cost nothing; the LLM judge costs a request per answer, so it is bounded
 * and a modal confirmation names the model, the requests at most and the inference API's address
 * before anything is sent. Command scorers are not offered: a program may only run as an
 * evaluation allows it (its allowance rules belong to evaluations' files).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { escapeForOneLine, quoted, urlLines } from '../../platform/kit/confirmationText';
import { formatForFileName, isTrajectoryFileName } from '../../platform/kit/trajectoryFile';
import type { Services } from '../../platform/host/services';
import { checkRegexSpec, scoreAtOnce, scoreBuiltin, type BuiltinSpec } from '../../platform/scoring/builtinScorers';
import { buildJudgeRequest, parseJudgeVerdict } from '../../platform/scoring/judge';
import { RegexMatcher } from '../../platform/scoring/regexMatcher';
import type { GroupFile } from '../model/groupFile';
import { openGroupFile } from '../model/openGroupFile';
import { referenceKeys, rescoreFile, type AnswerToScore, type RescoringOptions } from '../model/rescoring';
import { rolloutsViewTypes } from '../protocol';
import { RewardTrialPanel } from './rewardTrialPanel';
import type { RolloutEditorProvider } from './rolloutEditorProvider';
import { sourceFor } from './workspaceSource';

/** Answers a judge grades in one trial at most, and its requests in flight. */
export const maxJudgedAnswers = 2_000;
const judgeConcurrency = 4;

/** The new reward as chosen: how it scores, and its name on the page. */
interface ChosenReward {
  label: string;
  build(context: { regex: RegexMatcher; signal: AbortSignal }): Pick<RescoringOptions, 'score' | 'needsPrompt' | 'concurrency' | 'maxTrajectories'>;
}

export function groupFileFor(uri: vscode.Uri): GroupFile {
  return openGroupFile(sourceFor(uri), formatForFileName(path.posix.basename(uri.path)));
}

/** The command: the file given, else the one of the active editor (the inspector's or a text editor). */
export async function tryReward(services: Services, given: unknown, inspector: () => RolloutEditorProvider): Promise<void> {
  const uri = given instanceof vscode.Uri ? given : activeFileUri();
  if (!uri || !isTrajectoryFileName(uri.path)) {
    services.dialogs.info('Open a .jsonl or .json file of trajectory groups, or a .parquet trajectory log, then run Try a Reward again.');
    return;
  }
  const fileName = path.posix.basename(uri.path);
  const file = groupFileFor(uri);
  const keys = await referenceKeys(file);
  const reward = await chooseReward(services, keys);
  if (!reward) return;
  const regex = new RegexMatcher();
  const abort = new AbortController();
  const signal = AbortSignal.any([abort.signal, services.lifetime]);
  try {
    const scoring = reward.build({ regex, signal });
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `RL Studio: re-scoring ${fileName}`, cancellable: true }, async (progress, token) => {
      const cancelled = token.onCancellationRequested(() => abort.abort());
      const extent = await file.extent().catch(() => 0);
      let reported = 0;
      try {
        return await rescoreFile(file, {
          ...scoring,
          ...(reward.referenceKey ? { referenceKey: reward.referenceKey } : {}),
          signal,
          onProgress: ({ read, groups, trajectories }) => {
            const share = extent > 0 ? Math.min(100, (read / extent) * 100) : 0;
            progress.report({ increment: share - reported, message: `${groups.toLocaleString('en-US')} groups, ${trajectories.toLocaleString('en-US')} trajectories read` });
            reported = share;
          },
        });
      } finally {
        cancelled.dispose();
      }
    });
    RewardTrialPanel.show(services, uri, { fileName, reward: reward.label, result }, (file, viewType, line) => inspector().revealGroup(file, viewType, line));
  } catch (error) {
    // Cancelled: nothing to show, and nothing was kept.
    if (signal.aborted) return;
    throw error;
  } finally {
    regex.dispose();
  }
}

type RewardKind = 'exactMatch' | 'contains' | 'regex' | 'validJson' | 'length' | 'judge';

async function chooseReward(services: Services, keys: string[]): Promise<(ChosenReward & { referenceKey?: string }) | undefined> {
  const hasKeys = keys.length > 0;
  const items: (vscode.QuickPickItem & { reward: RewardKind })[] = [
    { label: 'Exact match', description: 'the answer equals the reference (case ignored)', reward: 'exactMatch' },
    { label: 'Contains', description: 'the answer contains the reference (case ignored)', reward: 'contains' },
    { label: 'Regular expression', description: 'the answer matches a pattern', reward: 'regex' },
    { label: 'Valid JSON', description: 'the answer (or its first code block) parses as JSON', reward: 'validJson' },
    { label: 'Length', description: 'the answer has at most a number of words', reward: 'length' },
    { label: 'LLM judge…', description: 'a catalogue model grades each answer: one request per answer, confirmed first', reward: 'judge' },
  ];
  const offered = items.filter((item) => hasKeys || (item.reward !== 'exactMatch' && item.reward !== 'contains'));
  const picked = await services.dialogs.pick(offered, {
    title: 'Try a Reward: score each final answer with…',
    // A file with no reference offers only the scorers that need none, and says why.
    ...(hasKeys ? {} : { placeHolder: "the file's first groups have no metadata to compare with: exact match and contains are not offered" }),
  });
  if (!picked) return undefined;
  const needsKey = picked.reward === 'exactMatch' || picked.reward === 'contains';
  let referenceKey: string | undefined;
  if (needsKey || (picked.reward === 'judge' && hasKeys)) {
    const keyItems = [
      ...keys.map((key) => ({ label: key, description: 'metadata key of the trajectory, else of its group' })),
      ...(needsKey ? [] : [{ label: '(no reference)', description: 'the judge reads the prompt and the answer only' }]),
    ];
    const key = await services.dialogs.pick(keyItems, { title: 'Try a Reward: the reference is in the metadata key…' });
    if (!key) return undefined;
    referenceKey = key.label === '(no reference)' ? undefined : key.label;
  }
  const against = referenceKey ? ` against metadata.${referenceKey}` : '';
  const builtin = (spec: BuiltinSpec, label: string): ChosenReward => ({
    label,
    build: ({ regex }) => {
      if (spec.kind === 'regex' || spec.kind === 'jsonSchema') return { score: (item: AnswerToScore) => scoreBuiltin(spec, item, item.answer, regex) };
      // The others score at once: nothing is awaited per answer.
      const immediate = spec;
      return { score: (item: AnswerToScore) => scoreAtOnce(immediate, item, item.answer) };
    },
  });
  switch (picked.reward) {
    case 'exactMatch':
      return { ...builtin({ kind: 'exactMatch' }, `exact match${against}`), referenceKey };
    case 'contains':
      return { ...builtin({ kind: 'contains' }, `contains${against}`), referenceKey };
    case 'validJson':
      return builtin({ kind: 'validJson' }, 'valid JSON');
    case 'regex': {
      const pattern = await services.dialogs.input({
        title: 'Try a Reward: the answer matches the regular expression',
        prompt: 'e.g. \\\\boxed\\{\\d+\\}',
        validateInput: (value) => checkRegexSpec(value),
      });
      return pattern ? builtin({ kind: 'regex', pattern }, `matches /${pattern.slice(0, 80)}/`) : undefined;
    }
    case 'length': {
      const words = await services.dialogs.input({
        title: 'Try a Reward: the answer has at most this many words',
        value: '200',
        validateInput: (value) => (/^\d{1,7}$/.test(value) ? undefined : 'a whole number of words'),
      });
      return words ? builtin({ kind: 'length', unit: 'words', max: Number(words) }, `at most ${words} words`) : undefined;
    }
    case 'judge':
      return chooseJudge(services, referenceKey);
  }
}

async function chooseJudge(services: Services, referenceKey: string | undefined): Promise<(ChosenReward & { referenceKey?: string }) | undefined> {
  const model = await services.dialogs.input({
    title: 'Try a Reward: the judge is the catalogue model',
    prompt: 'the model id on the inference API',
    validateInput: (value) => (value.trim() === '' || value.length > 200 ? 'a model id of 1 to 200 characters' : undefined),
  });
  if (!model) return undefined;
  const rubric = await services.dialogs.input({
    title: 'Try a Reward: the judge grades by the rubric',
    value: 'Is the answer correct and complete?',
    validateInput: (value) => (value.trim() === '' || value.length > 5_000 ? 'a rubric of 1 to 5,000 characters' : undefined),
  });
  if (!rubric) return undefined;
  const inferenceUrl = services.settings.current.inferenceApiUrl;
  const shownModel = quoted(model.trim());
  const confirmed = await services.dialogs.confirm(
    `Grade up to ${maxJudgedAnswers.toLocaleString('en-US')} answers with ${shownModel}?`,
    [
      `Model: ${shownModel}`,
      `Requests: one chat completion per answer, at most ${maxJudgedAnswers.toLocaleString('en-US')} (the first groups of the file up to that many answers), ${judgeConcurrency} at a time`,
      ...urlLines('Inference API', inferenceUrl),
      `Each request holds the rubric, the prompt, the answer${referenceKey ? ` and metadata.${escapeForOneLine(referenceKey)}` : ''}.`,
    ].join('\n'),
    'Grade',
  );
  if (!confirmed) return undefined;
  const spec = { model: model.trim(), rubric };
  return {
    label: `LLM judge ${spec.model}${referenceKey ? ` with metadata.${referenceKey}` : ''}`,
    referenceKey,
    build: ({ signal }) => ({
      needsPrompt: true,
      concurrency: judgeConcurrency,
      maxTrajectories: maxJudgedAnswers,
      score: async (item) => {
        try {
          const client = await services.client();
          const reply = await client.inference.chatCompletion({ ...buildJudgeRequest(spec, item, item.answer), stream: false }, { signal });
          const content = reply.choices[0]?.message.content;
          return parseJudgeVerdict(typeof content === 'string' ? content : '');
        } catch (error) {
          signal.throwIfAborted();
          return { error: `the judge did not answer: ${services.describeFailure(error).message}` };
        }
      },
    }),
  };
}

/** The file of the active editor: the rollout inspector's, or a text editor's. */
function activeFileUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputCustom && (rolloutsViewTypes as readonly string[]).includes(input.viewType)) return input.uri;
  return vscode.window.activeTextEditor?.document.uri;
}
