import * as vscode from 'vscode';
import { agentInstructions, explainInstructions, factBullets, jobNamedIn, pathNamedIn, toolTextAsMarkdown } from '../model/chatTargets';
import { explainJobFacts } from '../../training';
import { cutAnswerNotice, failureReason, fallbackModel, noAnswerNotice, openedStream, standInNotice, type ModelSummary } from '../model/modelFallback';
import { OrderedReply } from '../model/replyOrder';
import { escapeMarkdown } from '../../platform/kit/markdownText';
import { chatDefaultModelKey } from '../../platform/host/rememberedItems';
import { languageModelVendor } from '../../platform/agent/agentContributions';
import type { Services } from '../../platform/host/services';
import { signalFor } from '../../platform/host/cancellationSignal';
import { platformReadiness } from '../../platform/host/readiness';
import type { AgentToolName } from '../../platform/agent/agentContributions';
import { readJob } from '../../training';
import type { ToolFacts } from '../../platform/agent/toolFacts';
import type { JobListing } from '../../platform/agent/platformText';
import { errorMessage } from '../../platform/client/errorMessage';
import { isTrajectoryFileName } from '../../platform/kit/trajectoryFile';

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

/** A model's answer (with the line saying who answered, when it was a stand-in), or the line saying no model could. */
type ModelAnswer = { parts: AsyncIterable<unknown>; model: vscode.LanguageModelChat; options: vscode.LanguageModelChatRequestOptions; notice?: string } | { parts?: undefined; notice: string };

/**
 * `@rlstudio`: the slash commands read facts through RL Studio's own tools (so they answer with
 * numbers even when no model can), and a free-form question goes to the model the user chose,
 * with the tools, in a bounded loop. When the chosen model cannot answer, one of RL Studio's own
 * models does, and the answer says so (src/agent/model/modelFallback.ts). Every tool call goes through
 * vscode.lm.invokeTool with the request's token, so VS Code shows it in the chat and asks the user
 * to confirm costly ones. A slash command's answer keeps the order of src/agent/model/replyOrder.ts:
 * work first, then what the person reads as one run of Markdown, then buttons, so the chat folds
 * only the work.
 */
export class AgentParticipant {
  constructor(
    private readonly services: Services,
    private readonly toolFacts: ToolFacts,
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
      const message = errorMessage(error);
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
    const reply = orderedReply(stream);
    reply.step('Checking the RL platform…');
    const platform = await this.tool(reply, request, 'rlstudio_platform_status', {}, token);
    const metadata: AgentResultMetadata = { command: 'status' };
    const jobs = (await this.ready()) ? await this.jobList(reply, request, token) : undefined;
    reply.answer(this.asMarkdown(platform));
    if (jobs) {
      reply.answer(`\n\n${jobs.markdown}`);
      Object.assign(metadata, jobs.metadata);
    } else reply.offer({ command: 'rlStudio.signIn', title: 'Sign In' });
    reply.finish();
    return { metadata };
  }

  private async jobs(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    await this.requireReady(stream);
    const reply = orderedReply(stream);
    const jobs = await this.jobList(reply, request, token);
    reply.answer(jobs.markdown);
    reply.finish();
    return { metadata: { command: 'jobs', ...jobs.metadata } };
  }

  /** The followed jobs as Markdown, for the caller to write when its work is done; offers a button to the newest job. */
  private async jobList(reply: OrderedReply<vscode.Command>, request: vscode.ChatRequest, token: vscode.CancellationToken): Promise<{ markdown: string; metadata: Partial<AgentResultMetadata> }> {
    reply.step('Reading followed jobs…');
    this.toolFacts.forget('rlstudio_list_jobs');
    const markdown = this.asMarkdown(await this.tool(reply, request, 'rlstudio_list_jobs', {}, token));
    const jobs = this.services.remembered.jobs.list();
    const newest = [...jobs].sort((a, b) => b.addedAt.localeCompare(a.addedAt))[0];
    if (newest) reply.offer({ command: 'rlStudio.openJobDetails', arguments: [newest.id], title: `Open Job ${newest.id.slice(0, 8)}` });
    // The first job the listing found failed, for the "explain" follow-up: read from the listing's facts, not from its text.
    const listings = this.toolFacts.latest<JobListing[]>('rlstudio_list_jobs') ?? [];
    const failed = listings.find((listing) => /fail|error/i.test(String(listing.record?.status ?? '')) && jobs.some((job) => job.id === listing.id));
    return { markdown, metadata: failed ? { failedJob: failed.id } : {} };
  }

  private async explain(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    await this.requireReady(stream);
    const reply = orderedReply(stream);
    const jobs = [...this.services.remembered.jobs.list()].sort((a, b) => b.addedAt.localeCompare(a.addedAt));
    if (jobs.length === 0) {
      reply.answer('RL Studio follows no training job yet. Create one, or add one by id in the Training Jobs view, then ask again.');
      return { metadata: { command: 'explain' } };
    }
    const named = jobNamedIn(
      request.prompt,
      jobs.map((job) => job.id),
    );
    reply.step(named ? `Reading job ${named}…` : 'Looking for a failed job…');
    const cancel = signalFor(token);
    const signal = cancel.signal;
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
    // The reads are done; a read that fails ends the request, and the editor disposes its token with it.
    cancel.dispose();
    const facts = explainJobFacts(read.record, read.events, { now: Date.now() });
    reply.answer(`**Job ${escapeMarkdown(target)}**, what its events and metrics show:\n\n`);
    reply.answer(this.asMarkdown(factBullets(facts)));
    reply.offer({ command: 'rlStudio.openJobDetails', arguments: [target], title: 'Open Job Details' });
    await this.readFacts(request, explainInstructions(facts.join('\n')), reply, token);
    reply.finish();
    return { metadata: { command: 'explain', job: target } };
  }

  private async rollouts(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const reply = orderedReply(stream);
    const uri = this.referencedFile(request) ?? activeRolloutFile();
    const given = uri ? vscode.workspace.asRelativePath(uri, false) : pathNamedIn(request.prompt, ['.jsonl', '.json', '.parquet']);
    if (!given) {
      reply.answer('Name the rollout file, for example `@rlstudio /rollouts rollouts/batch-7.jsonl`, or attach it with `#file`.');
      return { metadata: { command: 'rollouts' } };
    }
    reply.step(`Reading ${given}…`);
    const summary = await this.tool(reply, request, 'rlstudio_summarise_rollouts', { path: given }, token);
    const target = uri ?? (await vscode.workspace.findFiles(given, undefined, 1))[0];
    reply.answer(this.asMarkdown(summary));
    if (target) reply.offer({ command: 'rlStudio.openRolloutInspector', arguments: [target], title: 'Open in the Rollout Inspector' });
    reply.finish();
    return { metadata: { command: 'rollouts', rollouts: given } };
  }

  /** A free-form question: the user's model (or RL Studio's, when it cannot answer), RL Studio's tools, at most `maxModelTurns` turns. */
  private async converse(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const tools = vscode.lm.tools.filter((tool) => tool.tags.includes('rl-studio'));
    const messages = [vscode.LanguageModelChatMessage.User(agentInstructions), ...historyOf(context), vscode.LanguageModelChatMessage.User(request.prompt)];
    const options: vscode.LanguageModelChatRequestOptions = { tools, justification: 'RL Studio answers questions about your training runs with its tools.' };
    // The model that answered the first turn (the chosen one, or RL Studio's when it could not) answers the rest.
    let answering: { model: vscode.LanguageModelChat; options: vscode.LanguageModelChatRequestOptions } | undefined;
    for (let turn = 0; turn < maxModelTurns; turn++) {
      let parts: AsyncIterable<unknown>;
      if (answering) parts = (await answering.model.sendRequest(messages, answering.options, token)).stream;
      else {
        const answer = await this.modelAnswer(request, messages, options, 'question', token);
        if (answer.notice) stream.markdown(`${answer.notice}\n\n`);
        if (!answer.parts) return { metadata: { command: '' } };
        parts = answer.parts;
        answering = answer;
      }
      const calls: vscode.LanguageModelToolCallPart[] = [];
      let text = '';
      for await (const part of parts) {
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
          results.push(new vscode.LanguageModelToolResultPart(call.callId, [new vscode.LanguageModelTextPart(`The tool failed: ${this.services.log.redact(errorMessage(error))}`)]));
        }
      }
      messages.push(vscode.LanguageModelChatMessage.User(results));
    }
    stream.markdown(`\n\n*Stopped after ${maxModelTurns} rounds of tool calls. Ask again to go on.*`);
    return { metadata: { command: '' } };
  }

  /** A model's reading of measured facts, in the same run of Markdown as the facts; when no model can read them, the facts stand alone, with a line saying why. */
  private async readFacts(request: vscode.ChatRequest, prompt: string, reply: OrderedReply<vscode.Command>, token: vscode.CancellationToken): Promise<void> {
    const answer = await this.modelAnswer(request, [vscode.LanguageModelChatMessage.User(prompt)], {}, 'facts', token);
    if (answer.notice) reply.answer(`\n\n${answer.notice}`);
    if (!answer.parts) return;
    reply.answer('\n\n');
    try {
      for await (const part of answer.parts) if (part instanceof vscode.LanguageModelTextPart) reply.answer(part.value);
    } catch (error) {
      if (token.isCancellationRequested) return;
      reply.answer(`\n\n${cutAnswerNotice(answer.model, failureReason(error, this.redact), 'facts')}`);
    }
  }

  /**
   * The chosen model's answer; when it fails before its first word, the answer of one of RL
   * Studio's own models, with the line that says so; when that cannot answer either, the line
   * saying what failed and what to do.
   */
  private async modelAnswer(
    request: vscode.ChatRequest,
    messages: vscode.LanguageModelChatMessage[],
    options: vscode.LanguageModelChatRequestOptions,
    about: 'facts' | 'question',
    token: vscode.CancellationToken,
  ): Promise<ModelAnswer> {
    const chosen = request.model as vscode.LanguageModelChat | undefined;
    let reason = 'no model is chosen';
    if (chosen) {
      try {
        return { parts: await openedStream((await chosen.sendRequest(messages, options, token)).stream), model: chosen, options };
      } catch (error) {
        if (token.isCancellationRequested) throw error;
        reason = failureReason(error, this.redact);
        this.services.log.warn(`@rlstudio: the chosen model ${chosen.vendor}/${chosen.id} could not answer: ${errorMessage(error)}`);
      }
    }
    const offered = await Promise.resolve(vscode.lm.selectChatModels({ vendor: languageModelVendor })).catch((): vscode.LanguageModelChat[] => []);
    const chosenSummary = chosen && summaryOf(chosen);
    const fallback = fallbackModel(chosenSummary, offered, this.services.context.globalState.get<string>(chatDefaultModelKey));
    if (!fallback) return { notice: noAnswerNotice({ chosen: chosenSummary, reason, signedIn: await this.services.credentials.isSignedIn(), about }) };
    const withTools = supportsTools(fallback);
    const fallbackOptions = withTools ? options : {};
    try {
      const response = await fallback.sendRequest(messages, fallbackOptions, token);
      const parts = await openedStream(response.stream);
      return {
        parts,
        model: fallback,
        options: fallbackOptions,
        notice: standInNotice({ chosen: chosenSummary, reason, fallback: summaryOf(fallback), withoutTools: Boolean(options.tools?.length) && !withTools }),
      };
    } catch (error) {
      if (token.isCancellationRequested) throw error;
      this.services.log.warn(`@rlstudio: RL Studio's model ${fallback.id} could not answer either: ${errorMessage(error)}`);
      const failed = { model: summaryOf(fallback), reason: failureReason(error, this.redact) };
      return { notice: noAnswerNotice({ chosen: chosenSummary, reason, fallback: failed, signedIn: true, about }) };
    }
  }

  private readonly redact = (text: string): string => this.services.log.redact(text);

  /** A tool's text; the call shows in the chat as a work step, so it must come before the answer. */
  private async tool(reply: OrderedReply<vscode.Command>, request: vscode.ChatRequest, name: AgentToolName, input: Record<string, unknown>, token: vscode.CancellationToken): Promise<string> {
    reply.step();
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: request.toolInvocationToken }, token);
    return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  }

  private asMarkdown(text: string): string {
    return toolTextAsMarkdown(text, escapeMarkdown);
  }

  private async ready(): Promise<boolean> {
    return (await platformReadiness(this.services)).ready;
  }

  private async requireReady(stream: vscode.ChatResponseStream): Promise<void> {
    if (await this.ready()) return;
    stream.button({ command: 'rlStudio.signIn', title: 'Sign In' });
    throw new Error('RL Studio is not connected to the platform: configure the endpoints and sign in, then ask again.');
  }

  private referencedFile(request: vscode.ChatRequest): vscode.Uri | undefined {
    for (const reference of request.references) {
      const value = reference.value;
      if (value instanceof vscode.Uri && isTrajectoryFileName(value.path)) return value;
      if (value instanceof vscode.Location && isTrajectoryFileName(value.uri.path)) return value.uri;
    }
    return undefined;
  }
}

function orderedReply(stream: vscode.ChatResponseStream): OrderedReply<vscode.Command> {
  return new OrderedReply<vscode.Command>({ markdown: (text) => stream.markdown(text), progress: (text) => stream.progress(text), button: (command) => stream.button(command) });
}

function summaryOf(model: vscode.LanguageModelChat): ModelSummary {
  return { id: model.id, name: model.name, vendor: model.vendor };
}

/** Whether the model calls tools: RL Studio's own do not (the editor reads `capabilities`, which older typings lack). */
function supportsTools(model: vscode.LanguageModelChat): boolean {
  return (model as { capabilities?: { supportsToolCalling?: boolean } }).capabilities?.supportsToolCalling === true;
}

function activeRolloutFile(): vscode.Uri | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  // A Parquet log has no text editor: the inspector's tab is the active one (its input's URI).
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const inspected = tab instanceof vscode.TabInputCustom ? tab.uri : undefined;
  const candidate = uri ?? inspected;
  return candidate && candidate.scheme === 'file' && isTrajectoryFileName(candidate.path) ? candidate : undefined;
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
