import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentToolNames, languageModelVendor, participantId } from '../../../../src/platform/agent/agentContributions';

const root = join(__dirname, '..', '..', '..', '..', '..');

interface ToolContribution {
  name: string;
  toolReferenceName?: string;
  displayName?: string;
  modelDescription?: string;
  userDescription?: string;
  tags?: string[];
  when?: string;
  inputSchema?: { type?: string; properties?: Record<string, { description?: string }>; required?: string[]; additionalProperties?: boolean };
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: ToolContribution[]; chatParticipants: { id: string; name: string; commands: { name: string }[] }[]; languageModelChatProviders: { vendor: string }[] };
};
const tools = manifest.contributes.languageModelTools;

/** Tools that spend compute, send data out or delete: each must confirm, and the glue's source must say so. */
const costly = ['rlstudio_create_model', 'rlstudio_start_training', 'rlstudio_start_sft', 'rlstudio_evaluate_checkpoints', 'rlstudio_delete_checkpoints', 'rlstudio_send_webhook_test'];

describe('the agent tools of package.json', () => {
  it('are the tools registered at activation, each once', () => {
    assert.deepEqual(
      tools.map((tool) => tool.name),
      [...agentToolNames],
    );
  });

  it('each has a reference name for #, a precise model description, a user description, the rl-studio tag and an object schema', () => {
    const references = new Set<string>();
    for (const tool of tools) {
      assert.match(tool.toolReferenceName ?? '', /^rl[A-Z]\w+$/, tool.name);
      assert.ok(!references.has(tool.toolReferenceName!), `${tool.name}: reference name taken`);
      references.add(tool.toolReferenceName!);
      assert.ok((tool.modelDescription ?? '').length >= 150, `${tool.name}: modelDescription says what it does, returns and when to use it`);
      assert.ok((tool.userDescription ?? '').length > 10, tool.name);
      assert.deepEqual(tool.tags, ['rl-studio'], tool.name);
      assert.equal(tool.inputSchema?.type, 'object', tool.name);
      assert.equal(tool.inputSchema?.additionalProperties, false, tool.name);
      for (const [name, property] of Object.entries(tool.inputSchema?.properties ?? {})) assert.ok((property.description ?? '').length > 10, `${tool.name}.${name} is described`);
      for (const required of tool.inputSchema?.required ?? []) assert.ok(tool.inputSchema?.properties?.[required], `${tool.name}: required ${required} is a property`);
    }
  });

  it('shows the platform tools only when RL Studio is configured and signed in, and says "asks first" of every costly one', () => {
    for (const tool of tools) {
      const platform = !['rlstudio_summarise_rollouts', 'rlstudio_validate_trajectories', 'rlstudio_render_payload', 'rlstudio_send_webhook_test', 'rlstudio_platform_status'].includes(tool.name);
      if (platform) assert.equal(tool.when, 'rlStudio.configured && rlStudio.signedIn', tool.name);
      if (costly.includes(tool.name)) assert.match(`${tool.userDescription} ${tool.modelDescription}`, /asks first|confirms first/, tool.name);
    }
  });

  it('every costly tool has a confirmation in its code', () => {
    const sources = ['src/training/host/tools/trainingTools.ts', 'src/evals/host/tools/evaluationTool.ts', 'src/webhooks/host/tools/webhookTools.ts']
      .map((file) => readFileSync(join(root, file), 'utf8'))
      .join('\n');
    for (const name of costly) {
      const start = sources.indexOf(`name: '${name}'`);
      assert.ok(start >= 0, name);
      const body = sources.slice(start, sources.indexOf('run: async', start));
      assert.match(body, /confirm: async/, `${name} confirms before it runs`);
    }
  });

  it('declares the @rlstudio participant with its commands', () => {
    const participant = manifest.contributes.chatParticipants.find((entry) => entry.id === participantId);
    assert.equal(participant?.name, 'rlstudio');
    assert.deepEqual(
      participant?.commands.map((command) => command.name),
      ['status', 'jobs', 'explain', 'rollouts'],
    );
  });

  it("names the models' vendor as package.json contributes it", () => {
    assert.deepEqual(
      manifest.contributes.languageModelChatProviders.map((provider) => provider.vendor),
      [languageModelVendor],
    );
  });
});
