/** Chat completions, shared by both APIs: a JSON answer or a server-sent event stream. */
import type { Outcome, RequestContext } from '../context';
import { completionTokenCount, content, generateCompletion, reasoning, type Completion } from '../completions';
import { HttpError, ValidationError } from '../httpError';
import { isServedModel, servedCheckpoint } from '../modelIds';
import { hashString, Prng } from '../prng';
import { applyRateLimit } from '../rateLimit';
import { maxTopLogprobs, tokenLogprobs, type ChoiceLogprobs } from '../logprobs';
import { jsonBody } from '../requestParsing';
import { chatCompletionBody } from '../schemas';
import { SseWriter } from '../sse';
import { validateBody } from '../validation';

interface ChatBody {
  model: string;
  messages: { role: string; content?: unknown }[];
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  stop?: string | string[] | null;
  seed?: number | null;
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean | null } | null;
  response_format?: { type: string } | null;
  temperature?: number | null;
  n?: number | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
}

/** Most answers one request may ask for with `n`. */
const MAX_CHOICES = 64;

/** A comment line is sent after the first chunk and then every this many chunks. */
const KEEP_ALIVE_EVERY = 25;

export async function chatCompletion(ctx: RequestContext): Promise<Outcome> {
  const body = validateBody<ChatBody>(jsonBody(ctx), chatCompletionBody);
  if (!isServedModel(ctx.env, ctx.api, body.model)) {
    throw ctx.api === 'inference' ? new HttpError(404, `The model \`${body.model}\` does not exist.`, 'model_not_found') : new HttpError(404, `Model '${body.model}' not found`);
  }
  const choices = body.n ?? 1;
  if (choices < 1 || choices > MAX_CHOICES) {
    throw new ValidationError([{ type: 'less_than_equal', loc: ['body', 'n'], msg: `Input should be between 1 and ${MAX_CHOICES}`, input: body.n }]);
  }
  const top = body.top_logprobs ?? 0;
  if (top < 0 || top > maxTopLogprobs) {
    throw new ValidationError([{ type: 'less_than_equal', loc: ['body', 'top_logprobs'], msg: `Input should be between 0 and ${maxTopLogprobs}`, input: body.top_logprobs }]);
  }
  const { state } = ctx.env;
  applyRateLimit(state, ctx.rawBody);
  if (state.completionLatencyMs > 0) await ctx.env.sleep(state.completionLatencyMs);
  if (ctx.env.isClosed()) {
    ctx.res.destroy();
    return 'handled';
  }
  const maxTokens = body.max_tokens ?? body.max_completion_tokens ?? undefined;
  const stop = body.stop == null ? [] : typeof body.stop === 'string' ? [body.stop] : body.stop;
  const checkpoint = servedCheckpoint(ctx.env, body.model);
  const completions = Array.from({ length: choices }, (_, draw) =>
    generateCompletion({
      model: body.model,
      messages: body.messages,
      ...(body.seed != null ? { seed: body.seed } : {}),
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(body.temperature != null ? { temperature: body.temperature } : {}),
      ...(checkpoint ? { checkpoint } : {}),
      draw,
      stop,
      jsonObject: body.response_format?.type === 'json_object',
    }),
  );
  const id = `chatcmpl-${state.random.alphanumeric(24)}`;
  const created = Math.floor(ctx.env.now() / 1000);
  if (body.stream) {
    const logprobsOf = body.logprobs === true ? (completion: Completion) => tokenLogprobs(completion.contentTokens, top, `${body.model}\u0000${content(completion)}`) : undefined;
    await streamCompletion(ctx, completions, { id, created, model: body.model, includeUsage: body.stream_options?.include_usage === true, logprobsOf });
    return 'handled';
  }
  const answer = {
    id,
    object: 'chat.completion',
    created,
    model: body.model,
    choices: completions.map((completion, index) => {
      const message: Record<string, unknown> = { role: 'assistant', content: content(completion) };
      if (completion.reasoningTokens.length > 0) message.reasoning = reasoning(completion);
      // Asked for, the log-probabilities are of the answer's content tokens, as the OpenAI API gives them.
      const logprobs = body.logprobs === true ? tokenLogprobs(completion.contentTokens, top, `${body.model}\u0000${content(completion)}`) : null;
      return { index, message, finish_reason: completion.finishReason, logprobs };
    }),
    usage: usageOf(completions),
  };
  if (ctx.cutStreamAfter !== undefined) {
    // A cut-stream fault on a plain answer: half the body, then the connection drops.
    const text = JSON.stringify(answer);
    ctx.res.writeHead(200, { 'content-type': 'application/json' });
    ctx.res.write(text.slice(0, Math.floor(text.length / 2)), () => ctx.res.destroy());
    return 'handled';
  }
  return { body: answer };
}

/** Usage of one request: the prompt counted once, the tokens of every choice. */
function usageOf(completions: Completion[]) {
  const promptTokens = completions[0]!.promptTokens;
  const completionTokens = completions.reduce((total, completion) => total + completionTokenCount(completion), 0);
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

interface StreamHeader {
  id: string;
  created: number;
  model: string;
  includeUsage: boolean;
  /** Asked for: each content delta carries the log-probabilities of its tokens. */
  logprobsOf: ((completion: Completion) => ChoiceLogprobs) | undefined;
}

/** Groups tokens into deltas of one to three tokens, each with where its tokens start. */
function deltas(tokens: string[], random: Prng): { text: string; start: number; end: number }[] {
  const parts: { text: string; start: number; end: number }[] = [];
  for (let index = 0; index < tokens.length;) {
    const size = random.int(1, 3);
    const end = Math.min(tokens.length, index + size);
    parts.push({ text: tokens.slice(index, end).join(''), start: index, end });
    index = end;
  }
  return parts;
}

/** Streams the choices one after another, each with its own index. */
async function streamCompletion(ctx: RequestContext, completions: Completion[], header: StreamHeader): Promise<void> {
  const { env } = ctx;
  const writer = new SseWriter(ctx.res, ctx.api === 'training' ? '\r\n' : '\n');
  const random = new Prng(hashString(header.id));
  const chunk = (choices: unknown[], usage?: unknown) =>
    JSON.stringify({
      id: header.id,
      object: 'chat.completion.chunk',
      created: header.created,
      model: header.model,
      choices,
      ...(header.includeUsage ? { usage: usage ?? null } : {}),
    });
  const events = completions.flatMap((completion, index) => {
    const delta = (value: Record<string, unknown>, finishReason: string | null = null, logprobs?: ChoiceLogprobs) =>
      chunk([{ index, delta: value, ...(logprobs ? { logprobs } : {}), finish_reason: finishReason }]);
    const logprobs = header.logprobsOf?.(completion);
    return [
      delta({ role: 'assistant', content: '' }),
      ...deltas(completion.reasoningTokens, random).map((part) => delta({ reasoning: part.text })),
      ...deltas(completion.contentTokens, random).map((part) => delta({ content: part.text }, null, logprobs ? { content: logprobs.content.slice(part.start, part.end), refusal: null } : undefined)),
      delta({}, completion.finishReason),
    ];
  });
  if (header.includeUsage) events.push(chunk([], usageOf(completions)));

  writer.start();
  for (let index = 0; index < events.length; index++) {
    if (env.isClosed()) return;
    if (writer.gone) {
      env.state.streams.closedByClient++;
      return;
    }
    if (ctx.cutStreamAfter !== undefined && index >= ctx.cutStreamAfter) {
      ctx.res.destroy();
      return;
    }
    if (index > 0 && env.settings.streamChunkDelayMs > 0) await env.sleep(env.settings.streamChunkDelayMs);
    await writer.data(events[index]!, ctx.cutStreamAfter !== undefined);
    if (index % KEEP_ALIVE_EVERY === 0) await writer.comment('keep-alive');
  }
  if (ctx.cutStreamAfter !== undefined) {
    ctx.res.destroy();
    return;
  }
  await writer.data('[DONE]');
  writer.end();
  env.state.streams.completed++;
}
