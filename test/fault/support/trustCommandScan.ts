/**
 * Reads the sources for every command registration (`registerCommand('rlStudio.x', (a, b) => …)`)
 * and reports each handler argument that carries a secret or a confirmation (by its name, or by
 * the properties of its declared type) and is used other than through `onlyFromTests(…)`. Any
 * other extension can run our commands with arguments of its choosing: such an argument would let
 * it plant a key, read one back, or answer a question for the user.
 *
 * A small tokenizer rather than a compiler: enough for the shapes this code base writes handlers
 * in, and strict where it cannot tell (a handler given by name is reported).
 */

/** Names of arguments and properties that hold a secret or stand for the user's answer. */
export const sensitiveName = /key|token|secret|password|credential|confirm|force|^value$/i;

export interface Finding {
  file: string;
  command: string;
  problem: string;
}

type Token = { kind: 'ident' | 'string' | 'punct' | 'template'; text: string };

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  const braceStack: Array<'code' | 'template'> = [];
  const regexAllowedAfter = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '&&', '||', '??', 'return', 'typeof', '=>']);
  const last = () => tokens[tokens.length - 1];
  const readTemplate = () => {
    // From just after a backtick or a closing `}` of a substitution, to the next backtick or `${`.
    while (index < source.length) {
      const char = source[index]!;
      if (char === '\\') index += 2;
      else if (char === '`') {
        index++;
        tokens.push({ kind: 'template', text: '`' });
        return;
      } else if (char === '$' && source[index + 1] === '{') {
        index += 2;
        braceStack.push('template');
        tokens.push({ kind: 'punct', text: '(' });
        return;
      } else index++;
    }
  };
  while (index < source.length) {
    const char = source[index]!;
    if (/\s/.test(char)) index++;
    else if (source.startsWith('//', index)) index = source.indexOf('\n', index) === -1 ? source.length : source.indexOf('\n', index);
    else if (source.startsWith('/*', index)) index = source.indexOf('*/', index + 2) + 2;
    else if (char === '"' || char === "'") {
      let end = index + 1;
      while (end < source.length && source[end] !== char) end += source[end] === '\\' ? 2 : 1;
      tokens.push({ kind: 'string', text: source.slice(index + 1, end) });
      index = end + 1;
    } else if (char === '`') {
      index++;
      readTemplate();
    } else if (/[A-Za-z_$]/.test(char)) {
      const match = /^[A-Za-z_$][\w$]*/.exec(source.slice(index, index + 200))!;
      tokens.push({ kind: 'ident', text: match[0] });
      index += match[0].length;
    } else if (/\d/.test(char)) {
      index += /^[\d_.xXa-fA-FeEn]+/.exec(source.slice(index))![0].length;
    } else if (char === '/' && (!last() || regexAllowedAfter.has(last()!.text))) {
      // A regular expression literal: skipped whole.
      let end = index + 1;
      let inClass = false;
      while (end < source.length && (source[end] !== '/' || inClass)) {
        if (source[end] === '\\') end++;
        else if (source[end] === '[') inClass = true;
        else if (source[end] === ']') inClass = false;
        end++;
      }
      index = /^[a-z]*/.exec(source.slice(end + 1))![0].length + end + 1;
      tokens.push({ kind: 'string', text: '/regex/' });
    } else if (char === '{') {
      braceStack.push('code');
      tokens.push({ kind: 'punct', text: '{' });
      index++;
    } else if (char === '}') {
      if (braceStack.pop() === 'template') {
        tokens.push({ kind: 'punct', text: ')' });
        index++;
        readTemplate();
      } else {
        tokens.push({ kind: 'punct', text: '}' });
        index++;
      }
    } else {
      const operator = ['?.', '...', '=>', '&&', '||', '??', '===', '!==', '=='].find((candidate) => source.startsWith(candidate, index)) ?? char;
      tokens.push({ kind: 'punct', text: operator });
      index += operator.length;
    }
  }
  return tokens;
}

const opening: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Index of the token closing the bracket opened at `start`. */
function closing(tokens: Token[], start: number): number {
  let depth = 0;
  for (let index = start; index < tokens.length; index++) {
    const text = tokens[index]!.text;
    if (tokens[index]!.kind !== 'punct') continue;
    if (text in opening) depth++;
    else if (text === ')' || text === ']' || text === '}') {
      depth--;
      if (depth === 0) return index;
    }
  }
  return tokens.length - 1;
}

interface Parameter {
  name: string;
  /** Names inside a destructuring pattern. */
  destructured: string[];
  /** The identifiers of its type annotation. */
  typeNames: string[];
}

function parameters(tokens: Token[], open: number, close: number): Parameter[] {
  const result: Parameter[] = [];
  let start = open + 1;
  const split = (end: number) => {
    if (end <= start) return;
    const part = tokens.slice(start, end);
    let cursor = part[0]?.text === '...' ? 1 : 0;
    const parameter: Parameter = { name: '', destructured: [], typeNames: [] };
    if (part[cursor]?.kind === 'ident') parameter.name = part[cursor]!.text;
    else if (part[cursor]?.text === '{' || part[cursor]?.text === '[') {
      const end = closing(part, cursor);
      parameter.destructured = part
        .slice(cursor + 1, end)
        .filter((token, at, all) => token.kind === 'ident' && all[at - 1]?.text !== ':')
        .map((token) => token.text);
      cursor = end;
    }
    const colon = part.findIndex((token, at) => at > cursor && token.text === ':');
    const equals = part.findIndex((token, at) => at > cursor && token.text === '=');
    if (colon >= 0)
      parameter.typeNames = part
        .slice(colon + 1, equals >= 0 ? equals : undefined)
        .filter((token) => token.kind === 'ident')
        .map((token) => token.text);
    result.push(parameter);
  };
  let depth = 0;
  for (let index = open + 1; index < close; index++) {
    const text = tokens[index]!.text;
    if (tokens[index]!.kind !== 'punct') continue;
    // Type arguments (`Map<string, number>`) hold commas too.
    if (text in opening || text === '<') depth++;
    else if (text === ')' || text === ']' || text === '}' || text === '>') depth--;
    else if (text === ',' && depth === 0) {
      split(index);
      start = index + 1;
    }
  }
  split(close);
  return result;
}

/** Property names of the interfaces and type literals declared in the sources, by type name. */
export function declaredProperties(sources: Map<string, string>): Map<string, string[]> {
  const properties = new Map<string, string[]>();
  for (const source of sources.values()) {
    const tokens = tokenize(source);
    for (let index = 0; index < tokens.length - 2; index++) {
      const isInterface = tokens[index]!.text === 'interface' && tokens[index + 1]!.kind === 'ident';
      const isTypeLiteral = tokens[index]!.text === 'type' && tokens[index + 1]!.kind === 'ident' && tokens[index + 2]!.text === '=';
      if (!isInterface && !isTypeLiteral) continue;
      const name = tokens[index + 1]!.text;
      const open = tokens.findIndex((token, at) => at > index && token.text === '{');
      if (open < 0) continue;
      const close = closing(tokens, open);
      const names: string[] = [];
      let depth = 0;
      for (let at = open + 1; at < close; at++) {
        const token = tokens[at]!;
        if (token.kind === 'punct' && token.text in opening) depth++;
        else if (token.kind === 'punct' && (token.text === ')' || token.text === ']' || token.text === '}')) depth--;
        else if (depth === 0 && token.kind === 'ident' && (tokens[at + 1]?.text === ':' || (tokens[at + 1]?.text === '?' && tokens[at + 2]?.text === ':'))) names.push(token.text);
      }
      properties.set(name, [...(properties.get(name) ?? []), ...names]);
    }
  }
  return properties;
}

/**
 * Every handler argument of every command registration in `sources` (path → text) that carries a
 * secret or a confirmation and is used outside `onlyFromTests(...)`. `forwarders` are the files
 * allowed to register commands under an id that is not written out (the lazy-loading tables).
 */
export function scanCommands(sources: Map<string, string>, forwarders: readonly string[] = []): { findings: Finding[]; commands: string[] } {
  const types = declaredProperties(sources);
  const findings: Finding[] = [];
  const commands: string[] = [];
  for (const [file, source] of sources) {
    const tokens = tokenize(source);
    for (let index = 0; index < tokens.length; index++) {
      if (tokens[index]!.text !== 'registerCommand' || tokens[index + 1]?.text !== '(') continue;
      if (tokens[index - 1]?.text === 'function' || tokens[index + 2]?.text === ')') continue;
      const call = index + 1;
      const idToken = tokens[call + 1]!;
      if (tokens[index - 1]?.text !== '.' && tokens[call + 2]?.text !== ',') continue;
      if (idToken.kind !== 'string') {
        // A declaration (`registerCommand(id: string, …)`) or a forwarding table.
        if (tokens[call + 2]?.text === ':' || forwarders.some((allowed) => file.endsWith(allowed))) continue;
        findings.push({ file, command: '?', problem: 'registers a command whose id is not written out, so its handler cannot be checked' });
        continue;
      }
      const command = idToken.text;
      commands.push(command);
      let at = call + 3;
      if (tokens[at]?.text === 'async') at++;
      let params: Parameter[];
      let bodyStart: number;
      if (tokens[at]?.text === '(') {
        const close = closing(tokens, at);
        params = parameters(tokens, at, close);
        bodyStart = tokens.findIndex((token, position) => position > close && token.text === '=>') + 1;
      } else if (tokens[at]?.kind === 'ident' && tokens[at + 1]?.text === '=>') {
        params = [{ name: tokens[at]!.text, destructured: [], typeNames: [] }];
        bodyStart = at + 2;
      } else {
        findings.push({ file, command, problem: 'its handler is not written inline, so its arguments cannot be checked' });
        continue;
      }
      const bodyEnd = tokens[bodyStart]?.text === '{' ? closing(tokens, bodyStart) : closing(tokens, call) - 1;
      for (const parameter of params) {
        for (const name of parameter.destructured) {
          if (sensitiveName.test(name)) findings.push({ file, command, problem: `destructures "${name}" from its arguments: take the argument whole and pass it through onlyFromTests()` });
        }
        if (!parameter.name) continue;
        const typed = parameter.typeNames.flatMap((typeName) => types.get(typeName) ?? []).filter((property) => sensitiveName.test(property));
        const wholeSensitive = sensitiveName.test(parameter.name);
        for (const use of uses(tokens, bodyStart, bodyEnd, parameter.name)) {
          if (use.insideOnlyFromTests) continue;
          if (use.property !== undefined) {
            if (wholeSensitive || sensitiveName.test(use.property)) findings.push({ file, command, problem: `reads "${parameter.name}.${use.property}" outside onlyFromTests()` });
          } else if (wholeSensitive || typed.length > 0) {
            findings.push({ file, command, problem: `uses "${parameter.name}"${typed.length ? ` (with ${typed.join(', ')})` : ''} outside onlyFromTests()` });
          }
        }
      }
    }
  }
  return { findings, commands };
}

function uses(tokens: Token[], start: number, end: number, name: string): Array<{ insideOnlyFromTests: boolean; property?: string }> {
  const found: Array<{ insideOnlyFromTests: boolean; property?: string }> = [];
  const calls: string[] = [];
  for (let index = start; index <= end; index++) {
    const token = tokens[index]!;
    if (token.kind === 'punct' && token.text in opening) calls.push(token.text === '(' ? (tokens[index - 1]?.text ?? '') : '');
    else if (token.kind === 'punct' && (token.text === ')' || token.text === ']' || token.text === '}')) calls.pop();
    if (token.kind !== 'ident' || token.text !== name) continue;
    const before = tokens[index - 1]?.text;
    const after = tokens[index + 1]?.text;
    // A property of something else (`x.name`), or a key in an object literal (`{ name: … }`).
    if (before === '.' || before === '?.') continue;
    if (after === ':' && (before === '{' || before === ',')) continue;
    const insideOnlyFromTests = calls.includes('onlyFromTests');
    const property = (after === '.' || after === '?.') && tokens[index + 2]?.kind === 'ident' ? tokens[index + 2]!.text : undefined;
    found.push({ insideOnlyFromTests, ...(property !== undefined ? { property } : {}) });
  }
  return found;
}
