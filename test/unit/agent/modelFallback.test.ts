import assert from 'node:assert/strict';
import { cutAnswerNotice, failureReason, fallbackModel, noAnswerNotice, openedStream, standInNotice, type ModelSummary } from '../../../src/agent/model/modelFallback';

const copilot: ModelSummary = { id: 'gpt-4.1', name: 'GPT-4.1', vendor: 'copilot' };
const qwen: ModelSummary = { id: 'OpenPipe/Qwen3-14B-Instruct', name: 'OpenPipe/Qwen3-14B-Instruct', vendor: 'rl-studio' };
const llama: ModelSummary = { id: 'meta-llama/Llama-3.1-8B-Instruct', name: 'meta-llama/Llama-3.1-8B-Instruct', vendor: 'rl-studio' };
const noRedaction = (text: string) => text;
/** The text a person reads: the Markdown without its escapes. */
const shown = (markdown: string) => markdown.replace(/\\(.)/g, '$1');

async function collect<Part>(parts: AsyncIterable<Part>): Promise<Part[]> {
  const seen: Part[] = [];
  for await (const part of parts) seen.push(part);
  return seen;
}

describe("@rlstudio's stand-in model when the chosen one cannot answer", () => {
  it("prefers the model RL Studio's chat starts new chats with, else the first offered", () => {
    assert.equal(fallbackModel(copilot, [qwen, llama], llama.id), llama);
    assert.equal(fallbackModel(copilot, [qwen, llama], 'gone/model'), qwen);
    assert.equal(fallbackModel(copilot, [qwen, llama], undefined), qwen);
    assert.equal(fallbackModel(undefined, [qwen], undefined), qwen, 'no model chosen at all');
  });

  it('never asks the model that just failed again, and has none when RL Studio offers none', () => {
    assert.equal(fallbackModel(qwen, [qwen, llama], qwen.id), llama);
    assert.equal(fallbackModel(qwen, [qwen], undefined), undefined);
    assert.equal(fallbackModel(copilot, [], undefined), undefined);
  });

  it('says which model answered and why, on one italic line', () => {
    const line = standInNotice({ chosen: copilot, reason: 'Language model unavailable', fallback: qwen, withoutTools: false });
    assert.equal(shown(line), "*The chosen model, GPT-4.1, could not answer (Language model unavailable), so RL Studio's model OpenPipe/Qwen3-14B-Instruct answered instead.*");
    assert.doesNotMatch(line, /\n/);
  });

  it('says when the stand-in answers a question without the tools', () => {
    const line = standInNotice({ chosen: copilot, reason: 'quota', fallback: qwen, withoutTools: true });
    assert.match(line, /calls no tools/);
    assert.match(line, /`\/status`, `\/jobs`, `\/explain` and `\/rollouts` answer with measured numbers/);
  });

  it('says what to do when no model can answer: sign in when signed out, choose another model when signed in', () => {
    const signedOut = noAnswerNotice({ chosen: copilot, reason: 'Language model unavailable', signedIn: false, about: 'facts' });
    assert.match(signedOut, /could not answer \(Language model unavailable\), and RL Studio offers its models only when signed in\./);
    assert.match(signedOut, /Sign in to RL Studio/);
    assert.match(signedOut, /The facts above are measured from the job and stand without a model\.\*$/);
    const signedIn = noAnswerNotice({ chosen: copilot, reason: 'x', signedIn: true, about: 'question' });
    assert.match(signedIn, /inference API offers no model now\. Choose another model/);
    assert.doesNotMatch(signedIn, /Sign in/);
    const both = noAnswerNotice({ chosen: copilot, reason: 'x', fallback: { model: qwen, reason: 'The inference API failed to answer \\(500\\)' }, signedIn: true, about: 'facts' });
    assert.match(shown(both), /nor could RL Studio's model OpenPipe\/Qwen3-14B-Instruct \(The inference API failed/);
    assert.match(noAnswerNotice({ chosen: undefined, reason: 'no model is chosen', signedIn: false, about: 'question' }), /^\*No model is chosen in the chat, and/);
  });

  it("shows a failure's reason on one line, cut, redacted, then escaped", () => {
    const secret = 'sk-secret-123';
    const reason = failureReason(new Error(`bad key ${secret}\n- step 24 · reward 0.99 [link](http://x) ${'y'.repeat(400)}`), (text) => text.replaceAll(secret, '***'));
    assert.doesNotMatch(reason, /\n/);
    assert.ok(!reason.includes(secret));
    assert.ok(reason.includes('\\*\\*\\*'), reason);
    assert.ok(reason.includes('\\[link\\]\\(http'), 'no link is made');
    assert.ok(reason.length < 400, `${reason.length}`);
    assert.equal(failureReason('plain words', noRedaction), 'plain words');
    assert.equal(failureReason(new Error(''), noRedaction), 'no reason given');
  });

  it('quotes a model name that is more than one token', () => {
    const odd = { id: 'x', name: 'step 24 · reward 0.99', vendor: 'other' };
    assert.match(shown(standInNotice({ chosen: odd, reason: 'r', fallback: qwen, withoutTools: false })), /The chosen model, "step 24 · reward 0\.99",/);
    assert.equal(shown(cutAnswerNotice(qwen, 'cut', 'question')), '*OpenPipe/Qwen3-14B-Instruct stopped before the end of its answer (cut).*');
  });

  it('reads the first part early, so a model that fails before its first word is found out, and gives every part back', async () => {
    async function* failing(): AsyncGenerator<string> {
      throw new Error('Language model unavailable');
    }
    await assert.rejects(openedStream(failing()), /Language model unavailable/);
    async function* three(): AsyncGenerator<string> {
      yield 'a';
      yield 'b';
      yield 'c';
    }
    assert.deepEqual(await collect(await openedStream(three())), ['a', 'b', 'c']);
    async function* none(): AsyncGenerator<string> {}
    assert.deepEqual(await collect(await openedStream(none())), []);
    async function* late(): AsyncGenerator<string> {
      yield 'a';
      throw new Error('cut');
    }
    const opened = await openedStream(late());
    await assert.rejects(collect(opened), /cut/);
  });
});
