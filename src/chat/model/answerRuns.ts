import type { ChatCompletionChunk } from '../../platform/client/types';
import type { ChatBackend } from './chatPorts';
import { activeColumns, appendUserTurn, editLastUserMessage, lastTurnAnswers, regenerateLastTurn, retryAnswer, streamingAnswers, type ConversationEnv } from './conversation';
import type { ConversationSaving } from './conversationSaving';
import type { ConversationStore } from './conversationStore';
import type { AnswerEntry, Conversation } from './conversationTypes';
import { DeltaBatcher } from './deltaBatcher';
import { describeChars, maxAnswerChars, maxConversationCharsForNewTurn, maxMessageChars, maxReasoningChars, maxRunningAnswers } from './limits';
import { apiForModel } from '../../platform/kit/modelIds';
import { buildChatRequest } from './requestBuilder';
import { runStream, type StreamOutcome } from './streamRun';
import type { HostEvent, ShownLength } from '../protocol';
import { ProtocolError, tooLong } from '../../platform/pages/wire';

/** What the webview is told as answers start, stream and end. */
export interface AnswerEvents {
  /** An event about one conversation: it reaches the webview only while that conversation is on screen. */
  forConversation(conversationId: string, event: HostEvent): void;
  /**
   * The last turn changed (a new turn, its question edited, its answers replaced); the conversation
   * had `previousCount` messages just before.
   */
  turnChanged(conversation: Conversation, previousCount: number): void;
  /** A title, a count or an order in the list of conversations may have changed. */
  listChanged(): void;
}

export interface AnswerRunsOptions {
  store: ConversationStore;
  backend: ChatBackend;
  saving: ConversationSaving;
  env: ConversationEnv;
  events: AnswerEvents;
  /** The conversation of that id, or a 'not-found' refusal. */
  conversation(id: string): Promise<Conversation>;
  /** A model that answered in full becomes the default of the next new conversation. */
  setLastModel?(modelId: string): void;
  /** Delay of the coalesced save of streamed text after a batch of it was posted. */
  streamingSaveDelayMs?: number;
  /** Longest wait before streamed text is posted to the webview. */
  deltaIntervalMs?: number;
}

interface RunningAnswer {
  conversationId: string;
  answer: AnswerEntry;
  abort: AbortController;
  /** Set by Stop: the text the user saw, which is what is kept. */
  shown?: ShownLength;
  done: Promise<void>;
}

/**
 * The turns of every conversation and the answers they stream: a new turn starts only in an idle
 * conversation and only while few enough answers stream; each answer streams into its entry in the
 * conversation, which is the one place its text is kept (the webview gets it in batches, storage
 * in coalesced writes); Stop ends them and keeps exactly the text the user saw.
 */
export class AnswerRuns {
  private readonly running = new Map<string, RunningAnswer>();
  /** Conversations whose new turn is being set up: claimed before any await, so a burst of sends starts one. */
  private readonly startingTurns = new Set<string>();

  constructor(private readonly options: AnswerRunsOptions) {}

  /** Answers streaming now, in every conversation. */
  get count(): number {
    return this.running.size;
  }

  hasRunning(conversationId: string): boolean {
    return [...this.running.values()].some((run) => run.conversationId === conversationId);
  }

  /** Whether the conversation streams or is starting a turn: it must not be reused or changed under it. */
  isBusy(conversationId: string): boolean {
    return this.startingTurns.has(conversationId) || this.hasRunning(conversationId);
  }

  /** Adds the user's message and answers it. */
  async send(conversationId: string, text: string): Promise<{ userMessageId: string }> {
    if (!text.trim()) throw new ProtocolError('the message is empty', 'empty');
    if (text.length > maxMessageChars) {
      throw new ProtocolError(tooLong('the message', text.length, maxMessageChars), 'too-long');
    }
    return this.withTurn(conversationId, async (conversation, previousCount) => {
      requireModel(conversation);
      const { user, answers } = appendUserTurn(conversation, text, this.options.env);
      await this.startTurn(conversation, previousCount, answers);
      return { userMessageId: user.id };
    });
  }

  /** Answers again in place of one answer of the last turn, with its model. */
  retry(conversationId: string, messageId: string): Promise<{ messageId: string }> {
    return this.withTurn(conversationId, async (conversation, previousCount) => {
      const answer = retryAnswer(conversation, messageId, this.options.env);
      if (!answer) throw new ProtocolError('only an answer of the last message can be retried', 'not-retryable');
      await this.startTurn(conversation, previousCount, [answer]);
      return { messageId: answer.id };
    });
  }

  /** Answers the last message again under the current settings. */
  regenerate(conversationId: string): Promise<{ messageIds: string[] }> {
    return this.withTurn(conversationId, async (conversation, previousCount) => {
      requireModel(conversation);
      const answers = regenerateLastTurn(conversation, this.options.env);
      if (!answers) throw new ProtocolError('there is no message to answer again', 'nothing-to-regenerate');
      await this.startTurn(conversation, previousCount, answers);
      return { messageIds: answers.map((answer) => answer.id) };
    });
  }

  /** Replaces the last message's text and answers it anew. */
  async editLastUserMessage(conversationId: string, text: string): Promise<{ messageIds: string[] }> {
    if (!text.trim()) throw new ProtocolError('the message is empty', 'empty');
    return this.withTurn(conversationId, async (conversation, previousCount) => {
      requireModel(conversation);
      const edited = editLastUserMessage(conversation, text, this.options.env);
      if (!edited) throw new ProtocolError('there is no message to edit', 'nothing-to-edit');
      await this.startTurn(conversation, previousCount, edited.answers);
      return { messageIds: edited.answers.map((answer) => answer.id) };
    });
  }

  /**
   * Stop: aborts the conversation's answers, waits for them to settle, then makes the kept text
   * exactly what the user saw. An answer that finished just before the Stop arrived is cut back
   * too, so no text the user did not see when pressing Stop ever appears afterwards.
   */
  async stop(conversationId: string, shown: ShownLength[]): Promise<AnswerEntry[]> {
    const shownById = new Map(shown.map((entry) => [entry.messageId, entry]));
    const runs = [...this.running.values()].filter((run) => run.conversationId === conversationId);
    for (const run of runs) {
      run.shown = shownById.get(run.answer.id);
      run.abort.abort();
    }
    await Promise.all(runs.map((run) => run.done));
    const conversation = await this.options.store.get(conversationId);
    if (!conversation) return [];
    const settled: AnswerEntry[] = [];
    let changed = false;
    // Only answers of the last turn can have been streaming when Stop was pressed; older ones are
    // never cut, whatever the webview says.
    const lastTurn = lastTurnAnswers(conversation);
    for (const entry of shown) {
      const answer = lastTurn.find((candidate) => candidate.id === entry.messageId);
      if (!answer) continue;
      if (!runs.some((run) => run.answer === answer) && truncateToShown(answer, entry)) {
        if (answer.status === 'done') answer.status = 'stopped';
        changed = true;
        this.options.events.forConversation(conversationId, { type: 'answerUpdated', conversationId, answer });
      }
      settled.push(answer);
    }
    // Coalesced: a webview repeating Stop with ever shorter lengths cannot make a write each time.
    if (changed) this.options.saving.soon(conversation, 0);
    return settled;
  }

  /** Stops every answer (the panel closes); resolves when each has ended and been saved. */
  stopAll(): Promise<void> {
    const runs = [...this.running.values()];
    for (const run of runs) run.abort.abort();
    return Promise.all(runs.map((run) => run.done)).then(() => undefined);
  }

  /**
   * Runs `start` for a new turn of an idle conversation. The conversation is claimed before the
   * first await, so of a burst of sends exactly one starts and the others are refused as busy; a
   * turn is refused as well when too many answers stream already, or when the conversation is too
   * large to keep growing.
   */
  private async withTurn<T>(conversationId: string, start: (conversation: Conversation, previousCount: number) => Promise<T>): Promise<T> {
    if (this.isBusy(conversationId)) throw new ProtocolError('an answer is still streaming: stop it first', 'busy');
    this.startingTurns.add(conversationId);
    try {
      const conversation = await this.requireIdle(conversationId);
      const columns = activeColumns(conversation.settings).length;
      if (this.running.size + columns > maxRunningAnswers) {
        throw new ProtocolError(`${this.running.size} answers are streaming in other conversations: wait for one to finish or stop it`, 'busy');
      }
      if (this.options.store.storedChars(conversationId) > maxConversationCharsForNewTurn) {
        throw new ProtocolError(
          `this conversation is too long to continue (over ${describeChars(maxConversationCharsForNewTurn)}): start a new conversation, and export this one to keep it`,
          'conversation-full',
        );
      }
      return await start(conversation, conversation.messages.length);
    } finally {
      this.startingTurns.delete(conversationId);
    }
  }

  private async requireIdle(id: string): Promise<Conversation> {
    const conversation = await this.options.conversation(id);
    if (this.hasRunning(id) || streamingAnswers(conversation).some((answer) => this.running.has(answer.id))) {
      throw new ProtocolError('an answer is still streaming: stop it first', 'busy');
    }
    return conversation;
  }

  /** Saves the structural change, tells the webview, then starts the answers. */
  private async startTurn(conversation: Conversation, previousCount: number, answers: AnswerEntry[]): Promise<void> {
    conversation.updatedAt = this.options.env.now();
    await this.options.saving.now(conversation);
    this.options.events.turnChanged(conversation, previousCount);
    this.options.events.listChanged();
    for (const answer of answers) this.startAnswer(conversation, answer);
  }

  /**
   * Streams one answer into its entry. Per token only the entry grows and the batcher is nudged;
   * posting to the webview and scheduling the save happen once per batch.
   */
  private startAnswer(conversation: Conversation, answer: AnswerEntry): void {
    const { events, saving } = this.options;
    const abort = new AbortController();
    const streamingSaveDelayMs = this.options.streamingSaveDelayMs ?? 1000;
    const batcher = new DeltaBatcher(
      () => answer,
      (delta) => {
        events.forConversation(conversation.id, { type: 'answerDelta', conversationId: conversation.id, messageId: answer.id, ...delta });
        // Only arms a timer when none is pending; the scheduler spaces the writes out.
        saving.soon(conversation, streamingSaveDelayMs);
      },
      this.options.deltaIntervalMs ?? 16,
    );
    const run: RunningAnswer = { conversationId: conversation.id, answer, abort, done: Promise.resolve() };
    this.running.set(answer.id, run);
    run.done = (async () => {
      let outcome: StreamOutcome;
      try {
        const stream = this.options.backend.stream(buildChatRequest(conversation, answer), apiForModel(answer.model), abort.signal);
        outcome = await runStream(stream, {
          signal: abort.signal,
          onDelta: (content, reasoning) => {
            answer.content += content;
            answer.reasoning += reasoning;
            batcher.changed();
          },
          limits: { content: maxAnswerChars, reasoning: maxReasoningChars },
          // The answer reached its limit: the request is stopped, the text so far is kept.
          onLimit: () => abort.abort(),
        });
      } catch (error) {
        // The backend could not even start (no client, no address): same footer as a failed request.
        outcome = await runStream(failingStream(error), { signal: abort.signal, onDelta: () => undefined });
      }
      batcher.cancel();
      this.running.delete(answer.id);
      await this.finishAnswer(conversation, answer, outcome, run.shown);
    })();
  }

  private async finishAnswer(conversation: Conversation, answer: AnswerEntry, outcome: StreamOutcome, shown: ShownLength | undefined): Promise<void> {
    if (shown) truncateToShown(answer, shown);
    answer.status = outcome.status;
    answer.stats = outcome.stats;
    if (outcome.finishReason) answer.finishReason = outcome.finishReason;
    if (outcome.error) answer.error = outcome.error;
    else delete answer.error;
    if (outcome.cut) answer.cut = outcome.cut;
    else delete answer.cut;
    if (outcome.status === 'done') this.options.setLastModel?.(answer.model);
    conversation.updatedAt = this.options.env.now();
    this.options.events.forConversation(conversation.id, { type: 'answerUpdated', conversationId: conversation.id, answer });
    await this.options.saving.now(conversation);
    this.options.events.listChanged();
  }
}

function requireModel(conversation: Conversation): void {
  const settings = conversation.settings;
  if (!settings.model) throw new ProtocolError('choose a model first', 'no-model');
  if (settings.compare && !settings.compareModel) throw new ProtocolError('choose the second model to compare with', 'no-model');
}

/** Cuts an answer back to what the user saw; true when something was removed. */
function truncateToShown(answer: AnswerEntry, shown: ShownLength): boolean {
  let cut = false;
  if (shown.contentLength < answer.content.length) {
    answer.content = answer.content.slice(0, shown.contentLength);
    cut = true;
  }
  if (shown.reasoningLength < answer.reasoning.length) {
    answer.reasoning = answer.reasoning.slice(0, shown.reasoningLength);
    cut = true;
  }
  return cut;
}

async function* failingStream(error: unknown): AsyncGenerator<ChatCompletionChunk> {
  throw error;
}
