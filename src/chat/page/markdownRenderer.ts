import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';

/**
 * Model output is untrusted. It is rendered by markdown-it with raw HTML off (any tag in the text is
 * shown as text), and the HTML markdown-it produces still goes through DOMPurify with a short
 * allow-list, so a renderer bug or a crafted construct cannot smuggle a script, an event handler, a
 * style or a frame into the panel. Links keep only http(s) addresses and are opened by the extension.
 * Images are never loaded (a remote image in an answer is a tracking pixel): they become links.
 */
export interface MarkdownRenderer {
  /** Sanitized DOM for a piece of Markdown, ready to insert. */
  render(markdown: string): DocumentFragment;
}

const allowedTags = [
  'a',
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  's',
  'del',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'div',
  'span',
  'button',
];
const allowedAttributes = ['href', 'title', 'class', 'start', 'type', 'data-action'];

const xhtml = 'http://www.w3.org/1999/xhtml';

const purifyConfig = {
  ALLOWED_TAGS: allowedTags,
  ALLOWED_ATTR: allowedAttributes,
  ALLOWED_URI_REGEXP: /^https?:\/\//i,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // Attributes that never hold an address must not be held to the address rule above.
  ADD_URI_SAFE_ATTR: ['type', 'data-action', 'start'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // HTML elements only. SVG and MathML are where mutation-XSS lives (markup that parses as harmless
  // HTML and re-parses as script once inside <svg> or <math>): no profile for them, their namespaces
  // are refused, and their elements are named again in FORBID_TAGS in case the allow-list grows.
  USE_PROFILES: false as const,
  NAMESPACE: xhtml,
  ALLOWED_NAMESPACES: [xhtml],
  FORBID_TAGS: [
    'svg',
    'math',
    'foreignObject',
    'mglyph',
    'malignmark',
    'annotation-xml',
    'script',
    'style',
    'template',
    'noscript',
    'iframe',
    'object',
    'embed',
    'img',
    'form',
    'input',
    'base',
    'link',
    'meta',
  ],
  FORBID_ATTR: ['style', 'src', 'srcset', 'xlink:href', 'action', 'formaction', 'srcdoc'],
  SAFE_FOR_XML: true,
  RETURN_DOM_FRAGMENT: true as const,
};

/**
 * The sanitizer alone, on any HTML: what every rendered answer goes through. Exported so the
 * browser tests can feed it raw markup that markdown-it itself would never produce.
 */
export function sanitizeHtml(html: string): DocumentFragment {
  return DOMPurify.sanitize(html, purifyConfig) as DocumentFragment;
}

export function createMarkdownRenderer(): MarkdownRenderer {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
  // Autolinks and linkify may produce mailto: and others; only web addresses stay links.
  const defaultValidate = md.validateLink.bind(md);
  md.validateLink = (url: string) => defaultValidate(url) && /^https?:\/\//i.test(url.trim());

  const escape = md.utils.escapeHtml;
  const codeBlock = (content: string, info: string): string => {
    const language = info.trim().split(/\s+/)[0] ?? '';
    const languageClass = language ? ` class="language-${escape(language.replace(/[^\w+#.-]/g, ''))}"` : '';
    return (
      '<div class="code-block"><div class="code-toolbar">' +
      `<span class="code-language">${escape(language)}</span>` +
      '<button type="button" class="code-action" data-action="copy" title="Copy code">Copy</button>' +
      '<button type="button" class="code-action" data-action="insert" title="Insert at the cursor of the active editor">Insert at cursor</button>' +
      `</div><pre><code${languageClass}>${escape(content)}</code></pre></div>\n`
    );
  };
  md.renderer.rules.fence = (tokens, index) => codeBlock(tokens[index]!.content, tokens[index]!.info);
  md.renderer.rules.code_block = (tokens, index) => codeBlock(tokens[index]!.content, '');
  md.renderer.rules.image = (tokens, index) => {
    const token = tokens[index]!;
    const source = String(token.attrGet('src') ?? '');
    const alt = token.children ? md.renderer.renderInlineAsText(token.children, md.options, {}) : token.content;
    return `<a href="${escape(source)}" class="blocked-image" title="Image not loaded: ${escape(source)}">[image: ${escape(alt || 'untitled')}]</a>`;
  };
  // Table alignment arrives as an inline style, which the panel's CSP forbids: use classes.
  for (const rule of ['th_open', 'td_open'] as const) {
    md.renderer.rules[rule] = (tokens, index, options, _env, self) => {
      const token = tokens[index]!;
      const style = String(token.attrGet('style') ?? '');
      if (style) {
        const align = /text-align:\s*(left|right|center)/.exec(style)?.[1];
        token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
        if (align) token.attrJoin('class', `align-${align}`);
      }
      return self.renderToken(tokens, index, options);
    };
  }

  return {
    render(markdown: string): DocumentFragment {
      return sanitizeHtml(md.render(markdown));
    },
  };
}
