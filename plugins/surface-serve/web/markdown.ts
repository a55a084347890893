import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * Model output is hostile: markdown becomes HTML, and DOMPurify keeps only harmless tags and
 * attributes (no scripts, handlers, styles, forms or frames). The page's CSP blocks inline script
 * as a second wall.
 */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: false }) as string;
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe'], FORBID_ATTR: ['style'] });
}

// Links open elsewhere and tell nothing about this page.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});
