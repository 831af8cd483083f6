// An ESLint rule: no import cycles among the files of src/. A file whose imports lead back to itself
// can see another's exports undefined while both load, and two files that need each other are one
// thing cut in two: the words they share belong in a third file both import. Type-only imports
// count too, since they tie the files' meanings together just the same.
//
// ESLint checks one file at a time; the rule reads the other files itself (their import lines only,
// found by a pattern, no parse), once per file per lint run.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { resolveImport } from './resolveImport.mjs';

/** `import … from './x'`, `export … from './x'`, `import './x'` and `require('./x')`, `'.'` and `'..'` too: relative ones only. */
const importPattern = /(?:^|\n)\s*(?:import|export)\s[^'";]*?['"](\.{1,2}\/[^'"]*)['"]|require\(\s*['"](\.{1,2}(?:\/[^'"]*)?)['"]\s*\)|\bfrom\s+['"](\.{1,2})['"]/g;

/** The files of src/ each file imports, read once per lint run. */
const importsOf = new Map();

function importedBy(file) {
  let imports = importsOf.get(file);
  if (imports) return imports;
  imports = [];
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // A file that went away since the lint began imports nothing.
  }
  for (const match of text.matchAll(importPattern)) {
    const target = resolveImport(file, match[1] ?? match[2] ?? match[3]);
    if (target && !imports.includes(target)) imports.push(target);
  }
  importsOf.set(file, imports);
  return imports;
}

/** A path of imports from `start` back to `start`, or undefined; every file is visited once. */
function cycleThrough(start) {
  const seen = new Set();
  const walk = (file, path) => {
    for (const next of importedBy(file)) {
      if (next === start) return [...path, next];
      if (seen.has(next)) continue;
      seen.add(next);
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}

export const importCycles = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid import cycles among source files' },
    schema: [],
    messages: { cycle: 'Import cycle: {{path}}. Move what these files share into a file that both import.' },
  },
  create(context) {
    const file = resolve(context.filename);
    return {
      'Program:exit'(node) {
        const cycle = cycleThrough(file);
        if (!cycle) return;
        const root = context.cwd;
        context.report({ node, messageId: 'cycle', data: { path: cycle.map((each) => relative(root, each)).join(' → ') } });
      },
    };
  },
};
