import * as vscode from 'vscode';
import { ConfirmedPlans } from './confirmedPlans';
import { inputObject } from './toolInput';
import { capText } from './textCap';
import type { Confirmation } from './toolConfirmations';
import { ToolFacts } from './toolFacts';
import type { Services } from '../host/services';
import { signalFor } from '../host/cancellationSignal';
import { platformReadiness } from '../host/readiness';

/** A confirmation and what it was made from: the plan `run` carries out, exactly as named. */
export interface Confirmed<Plan> {
  confirmation: Confirmation;
  plan: Plan;
}

/**
 * One of RL Studio's language-model tools, written against plain data: `read` checks the model's
 * input (throwing ToolInputError with what is wrong), `confirm` works out what will happen (it may
 * read the file or ask the platform, so the confirmation names real counts) and returns it as a
 * plan, `run` does exactly that plan (never looking its inputs up again; where a file is read
 * again, its digest must match what was confirmed) and answers with concise text holding the ids
 * the next call needs, and, where RL Studio itself reads the answer, the facts it was written from.
 */
export interface AgentTool<Input, Plan = undefined, Facts = undefined> {
  /** The name in package.json's languageModelTools. */
  readonly name: string;
  /** Whether the tool needs the platform (endpoints set and signed in) before it can run. */
  readonly needsPlatform: boolean;
  read(input: Record<string, unknown>): Input;
  /** Present on every tool that spends compute, sends data out or deletes. */
  confirm?(input: Input, signal: AbortSignal): Promise<Confirmed<Plan>>;
  /** The progress line shown while it runs ("Reading job 4f2…"). */
  progress(input: Input): string;
  /** `plan` is what `confirm` returned for this same input (undefined for a tool that does not confirm). */
  run(input: Input, signal: AbortSignal, plan: Plan): Promise<string | ToolAnswer<Facts>>;
}

/** A tool's text for the model, and the facts it was written from (kept in ToolFacts, never sent). */
export interface ToolAnswer<Facts> {
  text: string;
  facts: Facts;
}

/** Results are for a model's context: long ones are cut, and the cut is said. */
const maxResultChars = 16_000;

/**
 * The VS Code face of an AgentTool. Input is checked, and readiness too, in prepareInvocation,
 * before VS Code shows any confirmation, so a refused call never asks the person to confirm
 * something that would fail. The plan behind a confirmation is kept until invoke, which runs that
 * plan and nothing else, and refuses when none is kept for the input. Every text that leaves
 * (result or error) is cut first and redacted last: no result carries the key or a webhook secret.
 */
export function languageModelTool<Input, Plan, Facts>(
  services: Services,
  tool: AgentTool<Input, Plan, Facts>,
  facts = new ToolFacts(),
  plans = new ConfirmedPlans(),
): vscode.LanguageModelTool<Record<string, unknown>> {
  return {
    prepareInvocation: async (options, token) => {
      const input = tool.read(inputObject(options.input));
      if (tool.needsPlatform) await ensurePlatform(services);
      const signal = signalFor(token, services.lifetime);
      const prepared: vscode.PreparedToolInvocation = { invocationMessage: services.log.redact(tool.progress(input)) };
      if (tool.confirm) {
        const { confirmation, plan } = await guarded(services, tool.confirm(input, signal.signal)).finally(() => signal.dispose());
        plans.keep(tool.name, input, plan);
        // Plain text, not Markdown, one fact a line: names from the server, a file or the model are
        // quoted on one line, and the workbench's dialog (outside a chat) shows the same words.
        prepared.confirmationMessages = { title: services.log.redact(confirmation.title), message: services.log.redact(confirmation.message) };
      } else signal.dispose();
      return prepared;
    },
    invoke: async (options, token) => {
      const input = tool.read(inputObject(options.input));
      if (tool.needsPlatform) await ensurePlatform(services);
      let plan = undefined as Plan;
      if (tool.confirm) {
        const kept = plans.take<Plan>(tool.name, input);
        if (kept === undefined) throw new Error(services.log.redact(unconfirmed));
        plan = kept;
      }
      const signal = signalFor(token, services.lifetime);
      try {
        const answer = await guarded(services, tool.run(input, signal.signal, plan));
        const { text, facts: found } = typeof answer === 'string' ? { text: answer, facts: undefined } : answer;
        facts.record(tool.name, found);
        services.log.info(`tool ${tool.name}: done`);
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(services.log.redact(capText(text, maxResultChars)))]);
      } finally {
        signal.dispose();
      }
    },
  };
}

/** Said when a costly tool is run without a confirmation kept for its input. */
const unconfirmed =
  'RL Studio holds no confirmation for this call (it was not shown, it was answered more than 10 minutes ago, or it was already used), so nothing was done. Call the tool again to ask the user.';

/** The platform is needed: say what to do when it is not set up, instead of failing on the first request. */
async function ensurePlatform(services: Services): Promise<void> {
  const readiness = await platformReadiness(services);
  if (!readiness.endpoints) throw new Error('RL Studio has no platform address set. Nothing was done. Ask the user to run "RL Studio: Configure Endpoints".');
  if (!readiness.signedIn) throw new Error('RL Studio is not signed in. Nothing was done. Ask the user to run "RL Studio: Sign In" with their platform API key.');
}

/** A failure of the platform becomes its readable reason (the API, what happened, what to do). */
async function guarded<T>(services: Services, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof Error && (error.name === 'ToolInputError' || error.name === 'ToolRefusal')) throw new Error(services.log.redact(error.message));
    const failure = services.describeFailure(error);
    throw new Error(services.log.redact(failure.message));
  }
}
