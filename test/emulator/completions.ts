/**
 * Deterministic chat answers: the text depends only on the model, the last user message, the seed
 * and the draw, and carries some Markdown (heading, list, fenced code) so that renderers have work
 * to do. Two prompts are special: `/echo TEXT` answers exactly TEXT, `/long N` answers N tokens.
 * Eval questions the emulator can grade (arithmetic, see evalQuestions.ts) are answered right as
 * often as the model's accuracy says (evalAccuracy.ts).
 */
import { judgeReply } from './judges';
import { answerLuck, skillOf } from './evalAccuracy';
import { arithmeticQuestion, renderAnswer, wantsNumberOnly, wrongKind, type ArithmeticQuestion } from './evalQuestions';
import { hashString, Prng } from './prng';
import { countTokens, tokenize } from './tokenizer';

export interface CompletionRequest {
  model: string;
  messages: { role: string; content?: unknown }[];
  seed?: number;
  maxTokens?: number;
  stop?: string[];
  jsonObject?: boolean;
  temperature?: number;
  /** Which of the request's `n` answers this is; 0 for the first (and only). */
  draw?: number;
  /** The checkpoint the model id names, when it names one: its step sets how often eval questions are answered right. */
  checkpoint?: { trainingModel: string; step: number };
}

export interface Completion {
  /** Tokens of the reasoning text (reasoning models only), in order; joined they give the text. */
  reasoningTokens: string[];
  contentTokens: string[];
  finishReason: 'stop' | 'length';
  promptTokens: number;
}

export const reasoning = (completion: Completion): string => completion.reasoningTokens.join('');
export const content = (completion: Completion): string => completion.contentTokens.join('');
export const completionTokenCount = (completion: Completion): number => completion.reasoningTokens.length + completion.contentTokens.length;

/** Upper bound for `/long N`, so a typo cannot make the emulator build gigabytes of text. */
const LONG_ANSWER_LIMIT = 200_000;

export function isReasoningModel(model: string): boolean {
  return model.toLowerCase().includes('reason');
}

/** Text of a message's content: a string, or the text parts of a content array. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('');
  }
  return '';
}

/** Prompt tokens: the emulator's token count of every message's text. */
export function countPromptTokens(messages: CompletionRequest['messages']): number {
  return messages.reduce((total, message) => total + countTokens(messageText(message.content)), 0);
}

export function generateCompletion(request: CompletionRequest): Completion {
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  const prompt = messageText(lastUser?.content);
  // The first draw keeps the text it had before draws existed; at temperature 0 every draw is the first.
  const draw = request.temperature === 0 ? 0 : (request.draw ?? 0);
  // A checkpoint answers the same whether named by its step or as the latest one.
  const model = request.checkpoint ? `${request.checkpoint.trainingModel}:step${request.checkpoint.step}` : request.model;
  const random = new Prng(hashString(`${model}\u0000${prompt}\u0000${request.seed ?? ''}${draw === 0 ? '' : `\u0000${draw}`}`));

  let text = answerText(prompt, request, random);
  let finishReason: Completion['finishReason'] = 'stop';
  const cut = firstStop(text, request.stop ?? []);
  if (cut !== undefined) text = text.slice(0, cut);

  let reasoningTokens = isReasoningModel(request.model) ? tokenize(reasoningText(prompt, random)) : [];
  let contentTokens = tokenize(text);
  const budget = request.maxTokens;
  if (budget !== undefined && reasoningTokens.length + contentTokens.length > budget) {
    finishReason = 'length';
    reasoningTokens = reasoningTokens.slice(0, budget);
    contentTokens = contentTokens.slice(0, Math.max(0, budget - reasoningTokens.length));
  }
  return { reasoningTokens, contentTokens, finishReason, promptTokens: countPromptTokens(request.messages) };
}

function firstStop(text: string, stops: string[]): number | undefined {
  let first: number | undefined;
  for (const stop of stops) {
    if (stop === '') continue;
    const index = text.indexOf(stop);
    if (index >= 0 && (first === undefined || index < first)) first = index;
  }
  return first;
}

function answerText(prompt: string, request: CompletionRequest, random: Prng): string {
  if (prompt.startsWith('/echo ')) return prompt.slice('/echo '.length);
  const long = /^\/long\s+(\d+)/.exec(prompt);
  if (long) return longText(Math.min(LONG_ANSWER_LIMIT, Number(long[1])), random);
  const judged = judgeReply(prompt);
  if (judged !== undefined) return judged;
  if (request.jsonObject === true) return jsonAnswer(prompt, request.model, random);
  const question = arithmeticQuestion(prompt);
  if (question) return evalAnswer(question, prompt, request, random);
  return markdownAnswer(prompt, request.model, random);
}

/** Right when the answer's shared luck falls under the model's accuracy (see evalAccuracy.ts); otherwise one of the usual mistakes. */
function evalAnswer(question: ArithmeticQuestion, prompt: string, request: CompletionRequest, random: Prng): string {
  const skill = skillOf(request.model, request.checkpoint);
  const right = answerLuck(skill, prompt, request.seed, request.draw ?? 0, request.temperature) < skill.accuracy;
  const numberOnly = wantsNumberOnly(request.messages.map((message) => messageText(message.content)));
  return renderAnswer(question, right ? 'right' : wrongKind(random), numberOnly, random);
}

const openings = ['Here is a short answer', 'Good question', 'In short', 'Let me walk through it', 'Here is how I would approach it'];
const points = [
  ['Start small', 'try the idea on a handful of examples before scaling up.'],
  ['Measure first', 'collect a baseline so that every change can be compared against it.'],
  ['Keep rewards simple', 'a reward that is easy to compute is also easy to debug.'],
  ['Watch the loss', 'a sudden spike usually means the learning rate is too high.'],
  ['Checkpoint often', 'an earlier step is sometimes better than the last one.'],
  ['Read the samples', 'numbers hide failure modes that one look at the outputs reveals.'],
  ['Vary the prompts', 'a model that only sees one phrasing learns the phrasing, not the task.'],
];
const codeSamples = [
  ['python', 'def reward(answer: str, expected: str) -> float:\n    """Scores one answer between 0 and 1."""\n    return 1.0 if answer.strip() == expected.strip() else 0.0'],
  ['typescript', 'function average(values: number[]): number {\n  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);\n}'],
  ['bash', 'curl -s "$BASE_URL/models" \\\n  -H "Authorization: Bearer $API_KEY" | jq \'.data[].id\''],
  ['json', '{\n  "learning_rate": 5e-6,\n  "loss_fn": "cispo"\n}'],
];
const closings = ['Tell me if you want more detail on any point.', 'That should be enough to get going.', 'Happy to go deeper on any of these.'];

function topicOf(prompt: string): string {
  const words = prompt
    .replace(/[^\p{L}\p{N}\s'-]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 6);
  return words.length > 0 ? words.join(' ') : 'your question';
}

function markdownAnswer(prompt: string, model: string, random: Prng): string {
  const topic = topicOf(prompt);
  const chosen = new Set<number>();
  while (chosen.size < 3) chosen.add(random.int(0, points.length - 1));
  const list = [...chosen].map((index) => `- **${points[index]![0]}**: ${points[index]![1]}`).join('\n');
  const [language, code] = random.pick(codeSamples);
  const shortModel =
    model
      .replace(/:(step\d+|latest)$/, '')
      .split(/[/:]/)
      .filter(Boolean)
      .at(-1) ?? model;
  return [
    `## ${topic.charAt(0).toUpperCase()}${topic.slice(1)}`,
    '',
    `${random.pick(openings)}: this is ${shortModel} answering about *${topic}*.`,
    '',
    list,
    '',
    `\`\`\`${language}\n${code}\n\`\`\``,
    '',
    random.pick(closings),
  ].join('\n');
}

function jsonAnswer(prompt: string, model: string, random: Prng): string {
  return JSON.stringify({
    topic: topicOf(prompt),
    answer: random.pick(points).join(': '),
    confidence: Math.round((0.5 + random.next() / 2) * 100) / 100,
    model,
  });
}

function reasoningText(prompt: string, random: Prng): string {
  const topic = topicOf(prompt);
  return `The user asks about "${topic}". ${random.pick(['I should', 'Best to', 'I will'])} give a short overview, list the main points and add a small example.`;
}

const fillerWords = [
  'the',
  'model',
  'learns',
  'from',
  'reward',
  'signal',
  'each',
  'step',
  'and',
  'checkpoint',
  'keeps',
  'its',
  'weights',
  'while',
  'training',
  'continues',
  'over',
  'many',
  'trajectories',
];

/** Exactly `count` tokens of prose: word tokens with a space before them, sentence stops and paragraph breaks. */
function longText(count: number, random: Prng): string {
  const tokens: string[] = [];
  let sentenceLength = 0;
  while (tokens.length < count) {
    if (sentenceLength >= 8 && random.next() < 0.15) {
      tokens.push('.');
      sentenceLength = 0;
      continue;
    }
    const word = random.pick(fillerWords);
    const separator = tokens.length === 0 ? '' : sentenceLength === 0 && random.next() < 0.2 ? '\n\n' : ' ';
    tokens.push(separator + (sentenceLength === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : word));
    sentenceLength++;
  }
  return tokens.join('');
}
