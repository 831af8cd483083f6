import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkpointModelId, parseCheckpointModelId } from '../../../../src/platform/kit/checkpointIds';
import {
  describeReference,
  isModelNamePart,
  exampleModelId,
  isModelUuid,
  maxPartChars,
  maxReferenceChars,
  readModelReference,
  readProject,
  referenceExamples,
  sameCoordinates,
  type ReferenceReading,
} from '../../../../src/platform/kit/modelReference';

const uuid = '3f2b6c1e-8d4a-4c2e-9b1f-0a7d5e6c4b21';
const withProject = { project: 'acme/agents', allowId: true };
const withoutProject = { project: '', allowId: true };
const nameOnly = { project: 'acme/agents', allowId: false };

function accepted(reading: ReferenceReading) {
  assert.ok(reading.ok, reading.ok ? '' : `refused: ${reading.problem}`);
  return reading.reference;
}

function refused(reading: ReferenceReading, problem: RegExp): void {
  assert.equal(reading.ok, false, `accepted: ${JSON.stringify(reading)}`);
  if (!reading.ok) assert.match(reading.problem, problem);
}

describe('model references typed by a person', () => {
  describe('accepted forms', () => {
    for (const [label, options] of [
      ['with rlStudio.project', withProject],
      ['without rlStudio.project', withoutProject],
    ] as const) {
      it(`reads a model id (a UUID, any case, trimmed) ${label}`, () => {
        assert.deepEqual(accepted(readModelReference(`  ${uuid}  `, options)), { form: 'id', id: uuid });
        assert.deepEqual(accepted(readModelReference(uuid.toUpperCase(), options)), { form: 'id', id: uuid.toUpperCase() });
      });

      it(`reads a checkpoint model id with and without its step ${label}`, () => {
        assert.deepEqual(accepted(readModelReference('wandb-artifact:///team-x/proj.1/agent_001', options)), {
          form: 'artifact',
          coordinates: { entity: 'team-x', project: 'proj.1', name: 'agent_001' },
        });
        assert.deepEqual(accepted(readModelReference('wandb-artifact:///team-x/proj/agent:step12', options)), {
          form: 'artifact',
          coordinates: { entity: 'team-x', project: 'proj', name: 'agent' },
          step: 12,
        });
        assert.deepEqual(accepted(readModelReference('WANDB-ARTIFACT:///team-x/proj/agent:step0', options)), {
          form: 'artifact',
          coordinates: { entity: 'team-x', project: 'proj', name: 'agent' },
          step: 0,
        });
      });

      it(`reads entity/project/name, with an optional step ${label}`, () => {
        assert.deepEqual(accepted(readModelReference('other/proj/agent-7', options)), { form: 'path', coordinates: { entity: 'other', project: 'proj', name: 'agent-7' } });
        assert.deepEqual(accepted(readModelReference('other/proj/agent-7:step3', options)), { form: 'path', coordinates: { entity: 'other', project: 'proj', name: 'agent-7' }, step: 3 });
      });
    }

    it('joins a name alone to rlStudio.project (team/project)', () => {
      assert.deepEqual(accepted(readModelReference('agent-001', withProject)), { form: 'name', coordinates: { entity: 'acme', project: 'agents', name: 'agent-001' } });
      assert.deepEqual(accepted(readModelReference('agent-001:step4', withProject)), { form: 'name', coordinates: { entity: 'acme', project: 'agents', name: 'agent-001' }, step: 4 });
    });

    it('reads a name where only a name fits, and refuses an id there', () => {
      assert.deepEqual(accepted(readModelReference('agent-001', nameOnly)), { form: 'name', coordinates: { entity: 'acme', project: 'agents', name: 'agent-001' } });
      assert.deepEqual(accepted(readModelReference('a/b/c', { project: '', allowId: false })), { form: 'path', coordinates: { entity: 'a', project: 'b', name: 'c' } });
      refused(readModelReference(uuid, nameOnly), /is a model id; here, enter the model's name/);
    });

    it('takes a hex-and-dash name as a name where ids are not expected', () => {
      assert.deepEqual(accepted(readModelReference('0f8fad5b-d9cb', nameOnly)).form, 'name');
    });

    it('round-trips every checkpoint model id it builds', () => {
      const part = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,20}$/).filter((text) => !/^\.+$/.test(text));
      fc.assert(
        fc.property(part, part, part, fc.option(fc.nat({ max: 999_999_999 }), { nil: undefined }), (entity, project, name, step) => {
          const id = checkpointModelId({ entity, project, name }, step)!;
          const reference = accepted(readModelReference(id, withoutProject));
          assert.deepEqual(reference, step === undefined ? { form: 'artifact', coordinates: { entity, project, name } } : { form: 'artifact', coordinates: { entity, project, name }, step });
          assert.deepEqual(parseCheckpointModelId(id), step === undefined ? { entity, project, name } : { entity, project, name, step });
        }),
        { numRuns: 300 },
      );
    });
  });

  describe('refused forms, in words', () => {
    it('refuses empty text', () => {
      refused(readModelReference('   ', withProject), /Enter a model id or name/);
      refused(readModelReference('', nameOnly), /Enter the model's name/);
    });

    it('refuses a name alone without rlStudio.project, saying how to fix it', () => {
      refused(readModelReference('agent-001', withoutProject), /"agent-001" reads as a model name.*entity\/project\/agent-001.*rlStudio\.project.*UUID/);
      refused(readModelReference('agent-001', { project: '', allowId: false }), /set rlStudio\.project/);
    });

    it('refuses a name alone when rlStudio.project is not team/project', () => {
      for (const project of ['acme', 'acme/agents/x', 'acme/.', 'ac me/agents']) {
        refused(readModelReference('agent-001', { project, allowId: true }), /rlStudio\.project is ".*", which is not team\/project/);
      }
    });

    it('refuses dot segments however they are spelled', () => {
      for (const text of ['.', '..', '../a/b', 'a/../b', 'a/b/..', 'wandb-artifact:///a/../b', 'wandb-artifact:///../b/c', 'a/b/c:..', '%2e%2e', 'a/%2E%2E/b', '%252e%252e/a/b', './b/c', 'a\\..\\b']) {
        refused(readModelReference(text, withProject), /"\." and "\.\." cannot be part of a model id or name/);
      }
    });

    it('refuses percent-encoding, spaces and control characters', () => {
      refused(readModelReference('a/b/c%20d', withProject), /cannot hold "%"/);
      refused(readModelReference('acme/my agents/x', withProject), /no spaces/);
      refused(readModelReference('acme/agents/x\u0000', withProject), /control characters/);
    });

    it('refuses parts with characters a name cannot hold', () => {
      refused(readModelReference('acme/agents/a?b', withProject), /The name "a\?b" may hold letters, digits/);
      refused(readModelReference('acme/ag#nts/x', withProject), /The project "ag#nts"/);
      refused(readModelReference('-acme/agents/x', withProject), /The entity "-acme"/);
      refused(readModelReference('_agent', withProject), /The name "_agent"/);
      refused(readModelReference('a\\b\\c', withProject), /may hold letters, digits/);
    });

    it('refuses the wrong number of parts and empty parts', () => {
      refused(readModelReference('agents/agent-001', withProject), /Two parts: a model is entity\/project\/name, or its name alone/);
      refused(readModelReference('agents/agent-001', withoutProject), /^Two parts: a model is entity\/project\/name$/);
      refused(readModelReference('a/b/c/d', withProject), /Too many parts \(4\)/);
      refused(readModelReference('a//c', withProject), /Empty part between slashes/);
      refused(readModelReference('/a/b/c', withProject), /Empty part between slashes/);
      refused(readModelReference('a/b/c/', withProject), /Empty part between slashes/);
      refused(readModelReference('wandb-artifact:///', withProject), /After wandb-artifact:\/\/\/ comes entity\/project\/name/);
      refused(readModelReference('wandb-artifact:///agent-001', withProject), /After wandb-artifact:\/\/\/ comes entity\/project\/name/);
    });

    it('refuses any suffix but :stepN, and colons elsewhere', () => {
      for (const text of ['a/b/c:latest', 'a/b/c:v3', 'a/b/c:step', 'a/b/c:stepx', 'a/b/c:step-1', 'a/b/c:step1234567890', 'agent:production']) {
        refused(readModelReference(text, withProject), /Only a checkpoint step may follow the name, as :stepN/);
      }
      refused(readModelReference('a:b/c/d', withProject), /":" may only come at the end/);
      refused(readModelReference('a/b/c:step1:step2', withProject), /":" may only come at the end/);
    });

    it('refuses other addresses and artifact ids', () => {
      refused(readModelReference('wandb-artifact://_id/QXJ0aWZhY3Q6NTE3ODg5ODg3', withProject), /three slashes/);
      refused(readModelReference('wandb-artifact://acme/agents/x', withProject), /three slashes/);
      refused(readModelReference('https://example.com/acme/agents/x', withProject), /A web address is not a model reference/);
    });

    it('refuses an id with a step, and an id cut short', () => {
      refused(readModelReference(`${uuid}:step3`, withProject), /A model id has no :step suffix/);
      refused(readModelReference(uuid.slice(0, 20), withProject), new RegExp(`cut short.*${exampleModelId}`));
      refused(readModelReference(uuid.slice(0, 20), withoutProject), /cut short/);
    });

    it('refuses text and parts past their bounds before reading them', () => {
      refused(readModelReference(`${'a'.repeat(maxReferenceChars - 3)}/b/c`, withProject), /Too long: a model id or name has at most 512 characters/);
      refused(readModelReference(`a/b/${'c'.repeat(maxPartChars + 1)}`, withProject), /The name is too long: at most 128 characters/);
      assert.ok(readModelReference(`a/b/${'c'.repeat(maxPartChars)}`, withProject).ok, 'a part of exactly the bound is fine');
    });

    it('never accepts what would break a checkpoint model id or a request path', () => {
      fc.assert(
        fc.property(fc.string({ maxLength: 80 }), fc.constantFrom('', 'acme/agents'), (text, project) => {
          const reading = readModelReference(text, { project, allowId: true });
          if (!reading.ok) return;
          const reference = reading.reference;
          if (reference.form === 'id') {
            assert.ok(isModelUuid(reference.id));
            return;
          }
          for (const part of Object.values(reference.coordinates)) assert.match(part, /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/);
        }),
        { numRuns: 1000 },
      );
    });
  });

  describe('words and helpers', () => {
    it('says which form it understood', () => {
      assert.equal(describeReference({ form: 'id', id: uuid }), `model id ${uuid}`);
      assert.equal(describeReference(accepted(readModelReference('agent-001', withProject))), 'model acme/agents/agent-001 (agent-001 in rlStudio.project acme/agents)');
      assert.equal(describeReference(accepted(readModelReference('x/y/z:step2', withProject))), 'model x/y/z, step 2');
      assert.equal(describeReference(accepted(readModelReference('wandb-artifact:///x/y/z', withProject))), 'checkpoint model id of x/y/z (latest step)');
      assert.equal(describeReference(accepted(readModelReference('wandb-artifact:///x/y/z:step9', withProject))), 'checkpoint model id of x/y/z, step 9');
    });

    it("gives examples in the user's own team/project", () => {
      assert.equal(referenceExamples('acme/agents'), `e.g. ${exampleModelId}, acme/agents/agent-001 or agent-001`);
      assert.equal(referenceExamples(''), `e.g. ${exampleModelId} or acme/agents/agent-001`);
      assert.equal(referenceExamples('not a project'), `e.g. ${exampleModelId} or acme/agents/agent-001`);
      assert.equal(isModelUuid(exampleModelId), true);
    });

    it('reads rlStudio.project and compares names exactly', () => {
      assert.deepEqual(readProject(' acme/agents '), { entity: 'acme', project: 'agents' });
      assert.equal(readProject('acme'), undefined);
      assert.equal(readProject(''), undefined);
      assert.equal(sameCoordinates({ entity: 'a', project: 'b', name: 'c' }, { entity: 'a', project: 'b', name: 'c' }), true);
      assert.equal(sameCoordinates({ entity: 'a', project: 'b', name: 'c' }, { entity: 'a', project: 'b', name: 'C' }), false);
    });

    it('parseCheckpointModelId reads checkpoint model ids only, with the same rules', () => {
      assert.deepEqual(parseCheckpointModelId('wandb-artifact:///acme/agents/agent-001:step3'), { entity: 'acme', project: 'agents', name: 'agent-001', step: 3 });
      assert.equal(parseCheckpointModelId('wandb-artifact:///acme/../agent'), undefined);
      assert.equal(parseCheckpointModelId('wandb-artifact:///acme/agents'), undefined);
      assert.equal(parseCheckpointModelId('acme/agents/agent-001'), undefined, 'a path is not a model id');
      assert.equal(parseCheckpointModelId(' wandb-artifact:///acme/agents/agent-001'), undefined, 'an id is read exactly as given');
      assert.equal(parseCheckpointModelId('agent-001'), undefined);
      assert.equal(parseCheckpointModelId(uuid), undefined);
    });
  });
});

describe('isModelNamePart', () => {
  it('takes letters, digits, ".", "_" and "-", starting with a letter or digit', () => {
    for (const name of ['agent-001', 'a', 'Qwen2.5_7B', '0day']) assert.equal(isModelNamePart(name), true, name);
    for (const name of ['', '-agent', '.hidden', 'has space', 'a/b', 'é']) assert.equal(isModelNamePart(name), false, name);
  });
});
