/**
 * A hostile server names its models, checkpoints, jobs, events and errors with Markdown: hovering
 * the sidebar must show that text, never render it (an image is fetched from anywhere on hover, a
 * link can name a command). The tooltips are rendered here with markdown-it with HTML and linkify on,
 * stricter than VS Code's hover, and the result must hold no image, link or tag. Ids typed by the
 * user are checked before they become part of a request path.
 */
import { strict as assert } from 'node:assert';
import MarkdownIt from 'markdown-it';
import { rememberedJob } from '../support/builders';
import { FakeHost, manifestDefaults, useHost } from './support/trustHost';

const hostile = [
  '![x](https://evil.example/p.png)',
  '[a](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)',
  '<img src=https://evil.example/p.png onerror=alert(1)>',
  'www.evil.example/x https://evil.example/y',
  'x`![y](https://evil.example/q.png)`',
  'a` ![w](https://evil.example/w.png) `b',
  'line\n\n<script>alert(1)</script>\n![z](https://evil.example/z.png)',
  '&#33;[e](https://evil.example/e.png) $(zap) [r]: https://evil.example/ref',
  '[ref][r]\n\n[r]: https://evil.example/ref',
];

const renderer = new MarkdownIt({ html: true, linkify: true });

function rendered(tooltip: unknown): string {
  const markdown = tooltip as { value: string; isTrusted?: unknown; supportHtml?: boolean };
  assert.equal(typeof markdown.value, 'string', 'the tooltip is Markdown');
  assert.notEqual(markdown.isTrusted, true, 'the tooltip is not trusted');
  assert.equal(markdown.supportHtml, false, 'the tooltip renders no HTML');
  return renderer.render(markdown.value);
}

function assertInert(html: string, where: string): void {
  assert.doesNotMatch(html, /<(img|a|script|iframe|svg|style|object|embed|video|audio|link)\b/i, `${where} renders active content:\n${html}`);
}

describe('trust: server text in tooltips', () => {
  let nodes: {
    models: typeof import('../../src/training/host/models/modelNodes');
    jobs: typeof import('../../src/training/host/jobs/jobNodes');
  };

  before(() => {
    useHost(new FakeHost(manifestDefaults()));
    nodes = {
      models: require('../../src/training/host/models/modelNodes') as typeof import('../../src/training/host/models/modelNodes'),
      jobs: require('../../src/training/host/jobs/jobNodes') as typeof import('../../src/training/host/jobs/jobNodes'),
    };
  });

  it('the renderer used here does render such text when it is not escaped (the check can fail)', () => {
    assert.match(renderer.render(hostile[0]!), /<img/);
    assert.match(renderer.render(hostile[2]!), /<img/);
    assert.match(renderer.render(hostile[3]!), /<a /);
  });

  for (const [index, text] of hostile.entries()) {
    it(`hostile name and id #${index + 1} (${JSON.stringify(text).slice(0, 40)}…) in every model, checkpoint, job and event tooltip: shown as text, nothing active`, () => {
      const { treeItemOf } = nodes.models;
      const model = { id: text, entity: text, project: text, name: text, base_model: text, run_id: text };
      const items = [
        treeItemOf({ kind: 'inferenceModel', model: { id: text, object: 'model', created: 1, owned_by: text, root: `${text}-root` } }),
        treeItemOf({ kind: 'trainingModel', model }),
        treeItemOf({ kind: 'checkpoint', model, checkpoint: { id: text, step: 3, metrics: { [text]: 1, loss: 0.5 } } as never }),
      ];
      const job = rememberedJob(text, { modelId: text, label: text });
      const status = { phase: 'failed', step: 1, latestMetrics: { [text]: 2 }, errorMessage: text, eventCount: 1 };
      items.push(nodes.jobs.jobItem({ kind: 'job', job }, { id: text, status, events: [], loaded: true, connectionError: text } as never, Date.now()));
      items.push(nodes.jobs.eventItem({ kind: 'event', jobId: text, event: { id: text, type: text, data: { message: text, fence: '````', [text]: text } } as never }));
      for (const item of items) {
        const html = rendered(item.tooltip);
        assertInert(html, `the tooltip of ${String(item.id).slice(0, 30)}`);
        const marker = text.includes('evil.example') ? 'evil.example' : 'command:';
        assert.ok(html.includes(marker), `the text is still shown: ${html}`);
      }
    });
  }

  it('a megabyte of event data: the tooltip shows a bounded part of it', () => {
    const item = nodes.jobs.eventItem({ kind: 'event', jobId: 'job', event: { id: 'e1', type: 'gradient_step', data: { blob: 'x'.repeat(1_000_000) } } as never });
    const value = (item.tooltip as { value: string }).value;
    assert.ok(value.length < 10_000, `the tooltip holds ${value.length} characters`);
  });
});

describe('trust: ids typed into Add Model and Add Job', () => {
  let ids: typeof import('../../src/platform/trust/ids');

  before(() => {
    ids = require('../../src/platform/trust/ids') as typeof import('../../src/platform/trust/ids');
  });

  for (const id of ['..', '.', 'a/../b', '../models', '%2e%2e', '%2E%2e/x', '%252e%252e', 'a\\..\\b', './x']) {
    it(`id ${JSON.stringify(id)}: rejected in the input box with a message naming dot segments`, () => {
      assert.match(ids.idProblem(id, 'model') ?? '', /"\." or "\.\."/);
      assert.throws(() => ids.checkedId(id, 'training job'), /cannot be used as a training job id/);
    });
  }

  for (const id of ['a/b', 'a?b', 'a#b', '50%', 'a\u0000b']) {
    it(`id ${JSON.stringify(id)}: rejected as not a single name`, () => {
      assert.ok(ids.idProblem(id, 'model'));
    });
  }

  it('a real id (a UUID, or a name with dots inside): accepted', () => {
    assert.equal(ids.idProblem('3f1c2a9e-5b7d-4e8f-9a0b-1c2d3e4f5a6b', 'model'), undefined);
    assert.equal(ids.idProblem('model.v2..final', 'model'), undefined);
    assert.equal(ids.checkedId('  3f1c2a9e  ', 'model'), '3f1c2a9e');
  });
});
