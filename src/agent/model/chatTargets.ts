/**
 * What a chat prompt points at: a job id the user follows, a file path. Read from the words of the
 * prompt, bounded: a prompt is cut at 10,000 characters before it is searched. No `vscode` import.
 */

const maxPromptChars = 10_000;

/** The first followed job whose id (or an 8-character prefix of it, as the views show ids) the prompt names. */
export function jobNamedIn(prompt: string, jobIds: readonly string[]): string | undefined {
  const words = new Set(
    prompt
      .slice(0, maxPromptChars)
      .split(/[^A-Za-z0-9_-]+/)
      .filter((word) => word.length >= 6),
  );
  for (const id of jobIds) {
    if (words.has(id)) return id;
  }
  for (const id of jobIds) {
    for (const word of words) if (id.startsWith(word) && word.length >= 8) return id;
  }
  return undefined;
}

/** The first word of the prompt that looks like a file path with one of `extensions` (`rollouts/batch-7.jsonl`). */
export function pathNamedIn(prompt: string, extensions: readonly string[]): string | undefined {
  for (const word of prompt.slice(0, maxPromptChars).split(/[\s"'`()<>,;]+/)) {
    const trimmed = word.replace(/[.:!?]+$/, '');
    if (extensions.some((extension) => trimmed.toLowerCase().endsWith(extension)) && trimmed.length <= 1024) return trimmed;
  }
  return undefined;
}

/**
 * Tool text shown in the chat as Markdown: each line's text is escaped, so a job label or a
 * server's error message cannot add links, images or formatting; list markers stay lists.
 */
export function toolTextAsMarkdown(text: string, escape: (line: string) => string): string {
  return text
    .split('\n')
    .map((line) => {
      const bullet = /^(\s*)([-*]|\d+\.) /.exec(line);
      if (!bullet) return line.trim() === '' ? '' : `${escape(line)}  `;
      return `${bullet[1]}${bullet[2] === '*' ? '-' : bullet[2]} ${escape(line.slice(bullet[0].length))}`;
    })
    .join('\n');
}

/** Findings as one bullet each: a line break that reached a finding is shown as `\n`, never as a bullet of its own. */
export function factBullets(facts: readonly string[]): string {
  return facts.map((fact) => `- ${fact.replace(/\r\n|[\r\n\u2028\u2029]/g, '\\n')}`).join('\n');
}

/** The instructions the participant gives the model the user chose, before the conversation. */
export const agentInstructions = [
  "You are RL Studio's assistant in VS Code, for engineers who train language models with reinforcement learning on a serverless RL platform.",
  'Use the RL Studio tools to read facts (models, checkpoints, jobs, metrics, rollout files) before answering; cite job ids, steps and numbers from them.',
  'Tools that start jobs, evaluate, delete or send webhooks ask the user to confirm; call them only when the user asked for that action, with the exact ids and paths.',
  'Never ask for or repeat API keys or secrets: RL Studio keeps them and no tool returns them.',
  'Be concise. When a tool refuses an input, correct the input or ask the user.',
].join('\n');

/** The instructions for /explain: the facts are measured; the model explains them and suggests what to check. */
export function explainInstructions(facts: string): string {
  return [
    'These are measured facts about an RL training job, from its events and metrics:',
    facts,
    '',
    'Explain in a few sentences what most likely happened, citing steps and numbers from the facts only, then list up to three concrete things the engineer could check or change (for example learning rate, reward function, rollout quality). Do not invent numbers.',
  ].join('\n');
}
