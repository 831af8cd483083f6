/**
 * VS Code's chat, as it shows a completed answer (`chat.agent.collapseCompletedResponses`, on by
 * default): it finds the last Markdown part that is not blank, walks back over the Markdown parts
 * right before it, and keeps that run open as "the answer"; every part before the run (progress
 * lines, tool calls, buttons, earlier Markdown) folds under "Completed N steps". Parts after the
 * run (buttons) stay visible.
 */

export type ChatPart = { kind: 'markdown'; value: string } | { kind: 'progress'; value: string } | { kind: 'tool'; value: string } | { kind: 'button'; value: string };

export interface FoldedAnswer {
  /** The parts folded under "Completed N steps". */
  folded: ChatPart[];
  /** The answer's Markdown the person sees without unfolding anything. */
  openText: string;
  /** The parts after the answer's Markdown (buttons), visible too. */
  after: ChatPart[];
}

export function foldCompletedAnswer(parts: readonly ChatPart[]): FoldedAnswer {
  let last = parts.length - 1;
  while (last >= 0 && !(parts[last]!.kind === 'markdown' && parts[last]!.value.trim() !== '')) last--;
  if (last < 0) return { folded: [], openText: '', after: [...parts] };
  let first = last;
  while (first > 0 && parts[first - 1]!.kind === 'markdown') first--;
  return {
    folded: parts.slice(0, first),
    openText: parts
      .slice(first, last + 1)
      .map((part) => part.value)
      .join(''),
    after: parts.slice(last + 1),
  };
}
