import * as vscode from 'vscode';
import { agentInstructions, explainInstructions, factBullets, jobNamedIn, pathNamedIn, toolTextAsMarkdown } from '../../agent/chatTargets';
import { explainJobFacts } from '../../agent/jobReport';
import { escapeMarkdown } from '../../core/markdownText';
import type { Services } from '../platform/services';
import type { AgentToolName } from './agentToolNames';
import { readJob, type LatestJobListing } from './tools/platformTools';

/** Model turns in one free-form request at most: each may call tools, and the loop must end. */
const maxModelTurns = 8;
/** Tool calls in one model turn at most. */
const maxCallsPerTurn = 8;
/** Earlier turns of the conversation sent again, at most. */
const maxHistoryTurns = 10;

/** What a response leaves for its follow-ups. */
interface AgentResultMetadata {
  command: string;
  /** A failed job the user may want explained. */
  failedJob?: string;
  /** The job a response was about. */
  job?: string;
  rollouts?: string;
}

/**
 * `@rlstudio`: the slash commands read facts through RL Studio's own tools (so they answer with
 * numbers even when no model is chosen), and a free-form question goes to the model the user
 * chose, with the tools, in a bounded loop. Every tool call goes through vscode.lm.invokeTool with
 * the request's token, so VS Code shows it in the chat and asks the user to confirm costly ones.
 */
export class AgentParticipant {
  constructor(
    private readonly services: Services,
    private readonly latestJobs: LatestJobListing,
  ) {}

  async handle(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    try {
      switch (request.command) {
        case 'status':
          return await this.status(request, stream, token);
        case 'jobs':
          return await this.jobs(request, stream, token);
        case 'explain':
          return await this.explain(request, stream, token);
        case 'rollouts':
          return await this.rollouts(request, stream, token);
        default:
          return await this.converse(request, context, stream, token);
      }
    } catch (error) {
      if (token.isCancellationRequested) return { metadata: { command: request.command ?? '' } };
      const message = errorText(error);
      this.services.log.warn(`@rlstudio ${request.command ?? ''}: ${message}`);
      return { errorDetails: { message: this.services.log.redact(message) }, metadata: { command: request.command ?? '' } };
    }
  }

  followups(result: vscode.ChatResult, _context: vscode.ChatContext, _token: vscode.CancellationToken): vscode.ChatFollowup[] {
    const metadata = result.metadata as AgentResultMetadata | undefined;
    const followups: vscode.ChatFollowup[] = [];
    if (metadata?.failedJob) followups.push({ prompt: `why did job ${metadata.failedJob} fail?`, command: 'explain', label: `Explain why job ${metadata.failedJob.slice(0, 8)} failed` });
    if (metadata?.command === 'jobs' || metadata?.command === 'explain') followups.push({ prompt: 'how is the platform doing?', command: 'status', label: 'Platform status' });
    if (metadata?.command === 'status') followups.push({ prompt: 'list my jobs', command: 'jobs', label: 'List followed jobs' });
    if (metadata?.rollouts) followups.push({ prompt: `Is ${metadata.rollouts} good enough to train on?`, label: 'Ask whether to train on it' });
    return followups;
  }

  private async status(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    stream.progress('Checking the RL platform…');
    this.markdown(stream, await this.tool(request, 'rlstudio_platform_status', {}, token));
    const metadata: AgentResultMetadata = { command: 'status' };
    if (await this.ready()) {
      stream.markdown('\n\n');
      Object.assign(metadata, await this.jobList(request, stream, token));
    } else stream.button({ command: 'rlStudio.signIn', title: 'Sign In' });
    return { metadata };
  }

  private async jobs(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    await this.requireReady(stream);
    return { metadata: { command: 'jobs', ...(await this.jobList(request, stream, token)) } };
  }

  private async jobList(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<Partial<AgentResultMetadata>> {
    stream.progress('Reading followed jobs…');
    this.latestJobs.listings = [];
    this.markdown(stream, await this.tool(request, 'rlstudio_list_jobs', {}, token));
    const jobs = this.services.remembered.jobs.list();
    const newest = [...jobs].sort((a, b) => b.addedAt.localeCompare(a.addedAt))[0];
    if (newest) stream.button({ command: 'rlStudio.openJobDetails', arguments: [newest.id], title: `Open Job ${newest.id.slice(0, 8)}` });
    // The first job the listing found failed, for the "explain" follow-up: read from the listing's facts, not from its text.
    const failed = this.latestJobs.listings.find((listing) => /fail|error/i.test(String(listing.record?.status ?? '')) && jobs.some((job) => job.id === listing.id));
    return failed ? { failedJob: failed.id } : {};
  }

  private async explain(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    await this.requireReady(stream);
    const jobs = [...this.services.remembered.jobs.list()].sort((a, b) => b.addedAt.localeCompare(a.addedAt));
    if (jobs.length === 0) {
      stream.markdown('RL Studio follows no training job yet. Create one, or add one by id in the Training Jobs view, then ask again.');
      return { metadata: { command: 'explain' } };
    }
    const named = jobNamedIn(
      request.prompt,
      jobs.map((job) => job.id),
    );
    stream.progress(named ? `Reading job ${named}…` : 'Looking for a failed job…');
    const signal = abortSignalOf(token);
    // Without a job named: the newest failed one, else the newest.
    let target = named;
    let read: Awaited<ReturnType<typeof readJob>> | undefined;
    if (!target) {
      for (const job of jobs.slice(0, 10)) {
        const candidate = await readJob(this.services, job.id, signal).catch(() => undefined);
        if (candidate && /fail|error/i.test(candidate.record.status ?? '')) {
          target = job.id;
          read = candidate;
          break;
        }
      }
      target ??= jobs[0]!.id;
    }
    read ??= await readJob(this.services, target, signal);
    const facts = explainJobFacts(read.record, read.events, { now: Date.now() });
    stream.markdown(`**Job ${escapeMarkdown(target)}**, what its events and metrics show:\n\n`);
    this.markdown(stream, factBullets(facts));
    stream.button({ command: 'rlStudio.openJobDetails', arguments: [target], title: 'Open Job Details' });
    await this.askModel(request, explainInstructions(facts.join('\n')), stream, token);
    return { metadata: { command: 'explain', job: target } };
  }

  private async rollouts(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const uri = this.referencedFile(request) ?? activeRolloutFile();
    const given = uri ? vscode.workspace.asRelativePath(uri, false) : pathNamedIn(request.prompt, ['.jsonl', '.json']);
    if (!given) {
      stream.markdown('Name the rollout file, for example `@rlstudio /rollouts rollouts/batch-7.jsonl`, or attach it with `#file`.');
      return { metadata: { command: 'rollouts' } };
    }
    stream.progress(`Reading ${given}…`);
    this.markdown(stream, await this.tool(request, 'rlstudio_summarise_rollouts', { path: given }, token));
    const target = uri ?? (await vscode.workspace.findFiles(given, undefined, 1))[0];
    if (target) stream.button({ command: 'rlStudio.openRolloutInspector', arguments: [target], title: 'Open in the Rollout Inspector' });
    return { metadata: { command: 'rollouts', rollouts: given } };
  }

  /** A free-form question: the user's model, RL Studio's tools, at most `maxModelTurns` turns. */
  private async converse(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const tools = vscode.lm.tools.filter((tool) => tool.tags.includes('rl-studio'));
    const messages = [vscode.LanguageModelChatMessage.User(agentInstructions), ...historyOf(context), vscode.LanguageModelChatMessage.User(request.prompt)];
    for (let turn = 0; turn < maxModelTurns; turn++) {
      const response = await request.model.sendRequest(messages, { tools, justification: 'RL Studio answers questions about your training runs with its tools.' }, token);
      const calls: vscode.LanguageModelToolCallPart[] = [];
      let text = '';
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          text += part.value;
          stream.markdown(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart && calls.length < maxCallsPerTurn) calls.push(part);
      }
      if (calls.length === 0) return { metadata: { command: '' } };
      messages.push(vscode.LanguageModelChatMessage.Assistant([...(text ? [new vscode.LanguageModelTextPart(text)] : []), ...calls]));
      const results: vscode.LanguageModelToolResultPart[] = [];
      for (const call of calls) {
        try {
          const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken: request.toolInvocationToken }, token);
          results.push(new vscode.LanguageModelToolResultPart(call.callId, result.content));
        } catch (error) {
          if (token.isCancellationRequested) throw error;
          results.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(`The tool failed: ${this.services.log.redact(errorText(error))}`)]));
        }
      }
      messages.push(vscode.LanguageModelChatMessage.User(results));
    }
    stream.markdown(`\n\n*Stopped after ${maxModelTurns} rounds of tool calls. Ask again to go on.*`);
    return { metadata: { command: '' } };
  }

  /** Asks the user's model to explain measured facts; when it cannot, the facts stand alone. */
  private async askModel(request: vscode.ChatRequest, prompt: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<void> {
    try {
      const response = await request.model.sendRequest([vscode.LanguageModelChatMessage.User(prompt)], {}, token);
      stream.markdown('\n\n');
      for await (const chunk of response.text) stream.markdown(chunk);
    } catch (error) {
      if (token.isCancellationRequested) return;
      stream.markdown(`\n\n*The chosen model could not explain these facts (${escapeMarkdown(errorText(error))}); they are measured from the job as listed above.*`);
    }
  }

  private async tool(request: vscode.ChatRequest, name: AgentToolName, input: Record<string, unknown>, token: vscode.CancellationToken): Promise<string> {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: request.toolInvocationToken }, token);
    return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  }

  private markdown(stream: vscode.ChatResponseStream, text: string): void {
    stream.markdown(toolTextAsMarkdown(text, escapeMarkdown));
  }

  private async ready(): Promise<boolean> {
    const current = this.services.settings.current;
    return Boolean(current.trainingApiUrl && current.inferenceApiUrl) && (await this.services.credentials.isSignedIn());
  }

  private async requireReady(stream: vscode.ChatResponseStream): Promise<void> {
    if (await this.ready()) return;
    stream.button({ command: 'rlStudio.signIn', title: 'Sign In' });
    throw new Error('RL Studio is not connected to the platform: configure the endpoints and sign in, then ask again.');
  }

  private referencedFile(request: vscode.ChatRequest): vscode.Uri | undefined {
    for (const reference of request.references) {
      const value = reference.value;
      if (value instanceof vscode.Uri && /\.jsonl?$/i.test(value.path)) return value;
      if (value instanceof vscode.Location && /\.jsonl?$/i.test(value.uri.path)) return value.uri;
    }
    return undefined;
  }
}

function activeRolloutFile(): vscode.Uri | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri && uri.scheme === 'file' && /\.jsonl?$/i.test(uri.path) ? uri : undefined;
}

/** The conversation so far, as messages: the user's prompts and the text of the answers. */
function historyOf(context: vscode.ChatContext): vscode.LanguageModelChatMessage[] {
  const messages: vscode.LanguageModelChatMessage[] = [];
  for (const turn of context.history.slice(-maxHistoryTurns * 2)) {
    if (turn instanceof vscode.ChatRequestTurn) messages.push(vscode.LanguageModelChatMessage.User(turn.prompt));
    else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response.map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : '')).join('');
      if (text) messages.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  return messages;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function abortSignalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
