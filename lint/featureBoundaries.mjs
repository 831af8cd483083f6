// An ESLint rule: the floor plan of src/ (README.md, "How it is built"). Each feature folder
// (src/<feature>/) has the same rooms: model/ (pure), host/ (the VS Code glue), page/ (the webview,
// a browser), protocol.ts (the one contract between host and page), activation.ts (what VS Code
// must know from the start) and index.ts (what the feature offers the others). The platform
// (src/platform/) is shared by every feature and depends on none.
//  - A feature reaches another feature through that feature's index.ts only, never its rooms.
//  - The platform imports no feature.
//  - model/ imports no host/ and no page/; page/ imports no host/; protocol.ts imports neither.
// Which modules may import `vscode` or Node is the job of no-restricted-imports (eslint.config.mjs).
import { join, relative, resolve, sep } from 'node:path';
import { resolveImport } from './resolveImport.mjs';

/** Where a file of src/ lives: its top folder (a feature, `platform`, or '' for src/ itself) and its room. */
function placeOf(path) {
  const parts = path.split('/');
  if (parts.length === 1) return { top: '', room: '' };
  return { top: parts[0], room: parts.length > 2 ? parts[1] : parts[1].replace(/\.ts$/, '') };
}

function problemWith(from, to) {
  const source = placeOf(from);
  const target = placeOf(to);
  if (target.top === '' || target.top === 'platform') {
    if (source.top === 'platform' && target.top === '') return `the platform imports nothing of src/ outside it (${to})`;
    return undefined;
  }
  if (source.top === 'platform') return `the platform depends on no feature: move what ${to} offers into src/platform/, or pass it in`;
  if (source.top === '') return undefined; // src/extension.ts and src/testApi.ts put the features together
  if (source.top !== target.top) {
    if (to === `${target.top}/index.ts`) return undefined;
    return `${source.top} reaches into ${target.top}'s rooms (${to}): import what it needs from src/${target.top}/index.ts, and export it there`;
  }
  const rooms = { model: ['host', 'page', 'activation', 'index'], page: ['host', 'activation', 'index'], protocol: ['host', 'page', 'activation', 'index'] };
  if (rooms[source.room]?.includes(target.room))
    return `${source.room} does not import ${target.room} (${to}): ${source.room === 'page' ? 'the page runs in a browser and talks to the host over protocol.ts' : 'it is pure and shared; pass in what it needs'}`;
  return undefined;
}

export const featureBoundaries = {
  meta: {
    type: 'problem',
    docs: { description: "keep each feature's rooms its own, and the platform independent of the features" },
    schema: [],
    messages: { boundary: '{{problem}}' },
  },
  create(context) {
    const file = resolve(context.filename);
    const root = join(context.cwd, 'src');
    const here = relative(root, file).split(sep).join('/');
    if (here.startsWith('..')) return {};
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = resolveImport(file, specifier);
      if (!target) return;
      const there = relative(root, target).split(sep).join('/');
      if (there.startsWith('..')) return;
      const problem = problemWith(here, there);
      if (problem) context.report({ node, messageId: 'boundary', data: { problem } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') check(node, node.arguments[0].value);
      },
      TSImportType: (node) => {
        const literal = node.argument?.literal ?? node.argument;
        if (literal?.type === 'Literal') check(node, literal.value);
      },
    };
  },
};
