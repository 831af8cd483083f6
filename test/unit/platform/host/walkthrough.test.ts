import '../client/support/fakeVscode';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContextKeys } from '../../../../src/platform/host/contextKeys';
import { repositoryRoot } from '../client/support/harness';

interface Step {
  id: string;
  title: string;
  description: string;
  media: { markdown?: string };
  completionEvents: string[];
}

const manifest = JSON.parse(readFileSync(join(repositoryRoot(), 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[]; configuration: { properties: Record<string, unknown> } | { properties: Record<string, unknown> }[]; walkthroughs: { id: string; steps: Step[] }[] };
};

describe('Get Started walkthrough', () => {
  const [walkthrough] = manifest.contributes.walkthroughs;
  const commands = new Set(manifest.contributes.commands.map((entry) => entry.command));
  const keys = new Set<string>(Object.values(ContextKeys));
  const configuration = manifest.contributes.configuration;
  const settings = Object.assign({}, ...(Array.isArray(configuration) ? configuration : [configuration]).map((section) => section.properties)) as Record<string, unknown>;

  it('has one step per capability, in the order a newcomer meets them', () => {
    assert.deepEqual(
      walkthrough!.steps.map((step) => step.id),
      ['connect', 'signIn', 'followJob', 'chat', 'rollouts', 'evaluate', 'payload'],
    );
  });

  it("completes each step on a command RL Studio contributes or a context key it sets, and links only RL Studio's commands", () => {
    for (const step of walkthrough!.steps) {
      assert.ok(step.completionEvents.length > 0, `${step.id} completes on something`);
      for (const event of step.completionEvents) {
        const [kind, subject] = event.split(/:(.*)/s) as [string, string];
        if (kind === 'onCommand') assert.ok(commands.has(subject), `${step.id}: ${subject} is a command of RL Studio`);
        else if (kind === 'onContext') assert.ok(keys.has(subject), `${step.id}: ${subject} is a context key RL Studio sets`);
        else if (kind === 'onSettingChanged') assert.ok(subject in settings, `${step.id}: ${subject} is a setting of RL Studio`);
        else assert.fail(`${step.id}: unexpected completion event ${event}`);
      }
      for (const link of step.description.matchAll(/\(command:([\w.]+)\)/g)) {
        const command = link[1]!;
        assert.ok(commands.has(command) || command === 'rlStudio.jobs.focus', `${step.id} links ${command}`);
      }
    }
  });

  it('ships the Markdown of every step', () => {
    const ignore = readFileSync(join(repositoryRoot(), '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!media\/walkthrough\/\*\.md$/m);
    for (const step of walkthrough!.steps) {
      const file = join(repositoryRoot(), step.media.markdown ?? '');
      assert.ok(step.media.markdown?.startsWith('media/walkthrough/') && existsSync(file), `${step.id}: ${step.media.markdown}`);
      assert.match(readFileSync(file, 'utf8'), /^# /, `${step.id}'s page starts with its title`);
    }
  });
});
