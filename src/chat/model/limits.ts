/**
 * Every size the chat accepts, in one place. The webview is treated as hostile (a compromised
 * webview can post anything), and a model's stream can run on without end, so each string, list
 * and stored document has a bound; these are the bounds and why they sit where they do.
 */

const mebi = 1024 * 1024;

/**
 * Longest text one answer keeps, in characters (and the same again for its reasoning). The largest
 * output any served model is allowed is tens of thousands of tokens, a few hundred kilobytes of
 * text; an answer past 1 Mi characters is a runaway stream, and the panel, the saved conversation
 * and the next request's history would all grow with it. At the limit the request is stopped and
 * the text received so far is kept.
 */
export const maxAnswerChars = mebi;
export const maxReasoningChars = mebi;

/**
 * Longest message the user sends or edits: a million characters is a quarter of a million tokens
 * or more, past the context window of every model, so anything longer could only fail upstream.
 */
export const maxMessageChars = 1_000_000;

/** Longest system prompt: a long set of instructions is a few thousand characters. */
export const maxSystemPromptChars = 200_000;

/**
 * Longest text copied to the clipboard or inserted at the cursor: what the panel offers to copy is
 * an answer or a code block of one, so nothing legitimate is longer than an answer.
 */
export const maxClipboardChars = mebi;

/** A model id or a checkpoint address (`wandb-artifact:///entity/project/name:step`). */
export const maxModelIdChars = 1_000;

/** The most stop sequences the chat-completion format accepts. */
export const maxStopSequences = 4;

/** One stop sequence: a few characters in practice. */
export const maxStopSequenceChars = 500;

/** A link's address; longer ones are not real links. */
export const maxLinkChars = 8_192;

/** Conversation and message ids (generated UUIDs); stored ids are checked stricter still. */
export const maxIdChars = 200;

/** Entries of a Stop request: one per streaming answer, at most two columns. */
export const maxShownEntries = 8;

/** Entries of one turn as the host posts it: the question and an answer per column (two at most). */
export const maxTurnEntries = 3;

/**
 * Answers streaming at once across all conversations. Compare mode streams two per conversation;
 * more than a few at once is not something a person follows, and each is an open request.
 */
export const maxRunningAnswers = 6;

/**
 * Largest conversation document written to disk, in characters of its JSON. The document is read
 * whole and posted whole to the webview whenever the conversation opens, so it must stay a size
 * that opens in well under a second; 16 Mi characters holds a dozen answers at their limit, far
 * beyond a normal conversation (a few hundred kilobytes).
 */
export const maxStoredConversationChars = 16 * mebi;

/**
 * A conversation this large takes no new turn: one more turn adds at most two answers with their
 * reasoning at their limits and the message, so stopping at half the stored limit leaves room for
 * the turn in progress. The person is asked to start a new conversation.
 */
export const maxConversationCharsForNewTurn = 8 * mebi;

/** `1 MiB`, `200 KiB`, `512 characters`: a limit as a person reads it. */
export function describeChars(chars: number): string {
  if (chars >= mebi && chars % mebi === 0) return `${chars / mebi} MiB`;
  if (chars >= 1024 && chars % 1024 === 0) return `${chars / 1024} KiB`;
  return `${chars.toLocaleString('en-US')} characters`;
}

/** The footer of an answer cut at its limit. */
export function cutNotice(cut: { part: 'answer' | 'reasoning'; limitChars: number }): string {
  return `The ${cut.part} was cut at ${describeChars(cut.limitChars)}; RL Studio stopped the request.`;
}
