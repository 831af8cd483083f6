/**
 * Any other extension can run RL Studio's commands with arguments of its choosing. A command that
 * takes a key, a token, a secret or a confirmation as an argument must take it only from the
 * extension's own tests (onlyFromTests): this reads every command registration in src/.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourcesUnder } from '../support/files';
import { scanCommands } from './support/trustCommandScan';

const root = join(__dirname, '..', '..', '..');
/** The command registration that registers every command under the id it receives. */
const forwarders = ['src/platform/host/services.ts'];

const scan = (files: Record<string, string>) => scanCommands(new Map(Object.entries(files)), forwarders).findings.map((finding) => `${finding.command}: ${finding.problem}`);

describe('trust: command arguments other extensions can pass', () => {
  it('every command of package.json is found in src/, and none reads a key, token, secret or confirmation argument outside onlyFromTests()', () => {
    const { findings, commands } = scanCommands(sourcesUnder(join(root, 'src')), forwarders);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { commands: Array<{ command: string }> } };
    const declared = manifest.contributes.commands.map((entry) => entry.command);
    assert.deepEqual(
      declared.filter((id) => !commands.includes(id)),
      [],
      'commands whose handler the scan did not find',
    );
    assert.deepEqual(
      findings.map((finding) => `${finding.file} ${finding.command}: ${finding.problem}`),
      [],
    );
  });

  // The shapes the commands had before: each one must be reported.
  const unsafe: Record<string, string> = {
    'a key argument used directly': `services.registerCommand('rlStudio.signIn', (key?: unknown) => signIn(services, typeof key === 'string' ? key : undefined));`,
    'a confirmation flag': `services.registerCommand('rlStudio.webhook.remove', async (target?: unknown, confirmed?: boolean) => {
      if (confirmed !== true && (await ask())) return false;
    });`,
    'a secret value among other arguments': `services.registerCommand('rlStudio.webhook.setSecret', async (target?: unknown, name?: string, value?: string) => {
      const secretValue = value ?? (await vscode.window.showInputBox({ password: true }));
    });`,
    'an options object whose type holds a secret': `interface StartReceiverOptions { port?: number; secret?: string | null; quiet?: boolean }
    services.registerCommand('rlStudio.webhook.startReceiver', async (options?: StartReceiverOptions) => {
      const given = options && typeof options === 'object' ? options : {};
    });`,
    'a force flag read from options': `services.registerCommand('rlStudio.webhook.sendTest', async (target?: unknown, options: SendTestOptions = {}) => send(options.force));`,
    'a destructured token': `services.registerCommand('rlStudio.x', async ({ accessToken }: { accessToken: string }) => store(accessToken));`,
    'a handler given by name': `services.registerCommand('rlStudio.x', handler);`,
  };
  for (const [what, source] of Object.entries(unsafe)) {
    it(`a command with ${what}: reported`, () => {
      assert.notDeepEqual(scan({ 'src/example.ts': source }), []);
    });
  }

  it('the same commands taking those arguments through onlyFromTests(), or only harmless parts of them: not reported', () => {
    const safe = `interface StartReceiverOptions { port?: number; secret?: string | null }
    services.registerCommand('rlStudio.signIn', (key?: unknown) => {
      const given = onlyFromTests(services, key);
      return signIn(services, typeof given === 'string' ? given : undefined);
    });
    services.registerCommand('rlStudio.webhook.startReceiver', async (options?: StartReceiverOptions) => {
      const given = { port: typeof options?.port === 'number' ? options.port : undefined, ...onlyFromTests(services, options) };
    });
    services.registerCommand('rlStudio.webhook.sendTest', async (target?: unknown, options?: SendTestOptions) => {
      const force = onlyFromTests(services, options)?.force === true;
      return \`\${target}\`;
    });
    services.registerCommand('rlStudio.copyModelId', async (node?: ModelsNode, selection?: Map<string, number>) => node?.model.id);`;
    assert.deepEqual(scan({ 'src/example.ts': safe }), []);
  });
});
