import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';

/** A page as markdown, and how it was read. */
export interface PageMarkdown {
  title: string;
  markdown: string;
  /** Readability found the main content (article), or the whole body was converted. */
  extracted: 'article' | 'body';
}

/** Elements that are never content: scripts, styles, and the page furniture around the text. */
const NOISE = ['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas', 'form', 'button', 'select', 'input', 'nav', 'header', 'footer', 'aside'];
/** Below this many characters, Readability's "article" is probably a fragment: the body is used. */
const MIN_ARTICLE_CHARS = 200;

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' });
turndown.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'svg', 'canvas'] as unknown as TurndownService.Filter);

type Doc = ReturnType<typeof parseHTML>['document'];

/** Makes links and images absolute (against the page's URL or its <base>), and drops script links. */
function absolutize(document: Doc, base: string): void {
  let baseUrl = base;
  const declared = document.querySelector('base[href]')?.getAttribute('href');
  if (declared) {
    try {
      baseUrl = new URL(declared, base).href;
    } catch {
      // A broken <base> is ignored.
    }
  }
  for (const [selector, attribute] of [['a[href]', 'href'], ['img[src]', 'src']] as const) {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute) ?? '';
      try {
        const url = new URL(value, baseUrl);
        if (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:') element.setAttribute(attribute, url.href);
        else element.removeAttribute(attribute);
      } catch {
        element.removeAttribute(attribute);
      }
    }
  }
}

/** Tidies turndown's output: one space after list markers, no runs of blank lines, no trailing spaces. */
function tidy(markdown: string): string {
  return markdown
    .replace(/^(\s*)([-*+]|\d+\.) {2,}/gm, '$1$2 ')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** HTML to markdown: the main content when Readability finds an article, else the body without its furniture. */
export function htmlToMarkdown(html: string, url: string): PageMarkdown {
  const { document } = parseHTML(html);
  absolutize(document, url);
  const title = (document.querySelector('title')?.textContent ?? '').trim().replace(/\s+/g, ' ');
  let article: { content?: string | null; textContent?: string | null; title?: string | null } | null = null;
  try {
    article = new Readability(document.cloneNode(true) as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: MIN_ARTICLE_CHARS }).parse();
  } catch {
    // Readability gives up on odd documents: the body is converted instead.
  }
  if (article?.content && (article.textContent ?? '').trim().length >= MIN_ARTICLE_CHARS)
    return { title: title || (article.title ?? '').trim(), markdown: tidy(turndown.turndown(article.content)), extracted: 'article' };
  const body = document.body ?? document.documentElement;
  for (const element of body ? [...body.querySelectorAll(NOISE.join(','))] : []) element.remove();
  return { title, markdown: tidy(turndown.turndown(body?.innerHTML ?? '')), extracted: 'body' };
}
