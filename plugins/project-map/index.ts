import { statSync } from 'node:fs';
import { definePlugin, type SystemSection } from '../../core/index.js';
import { estimateTextTokens } from '../../core/kits/provider/index.js';
import { MapCache } from './listing-cache.js';
import { renderWithin } from './render.js';
import { scanProject } from './scan.js';

interface Options {
  enabled?: boolean;
  /** Size of the map in tokens; folders are expanded level by level while it fits. */
  maxTokens?: number;
  /** Gitignore-style patterns left out besides the .gitignore files. */
  exclude?: string[];
  /** Entries scanned at most. */
  maxEntries?: number;
}

/** This build's scan and rendering (their files' sizes and times): a map cached by another build is made again. */
const codeStamp = () =>
  ['./scan.js', './render.js'].map((file) => {
    try {
      const s = statSync(new URL(file, import.meta.url));
      return `${s.size}:${s.mtimeMs}`;
    } catch {
      return '';
    }
  });

/**
 * The project map: a compact table of contents of the project (a .gitignore-aware file tree within
 * a token budget) in the system prompt, so the model searches well from the first turn. Scanned
 * once per session, so the prompt stays byte-identical between requests.
 */
export default definePlugin<Options>({
  name: 'project-map',
  version: '1.0.0',
  configKey: 'projectMap',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      enabled: { type: 'boolean', default: true },
      maxTokens: { type: 'integer', minimum: 50, default: 1500 },
      exclude: { type: 'array', items: { type: 'string' }, default: [] },
      maxEntries: { type: 'integer', minimum: 10, default: 20000 },
    },
  },
  apply(kernel, options) {
    if (options.enabled === false) return;
    let section: SystemSection | null | undefined;
    const scanOptions = { exclude: options.exclude ?? [], maxEntries: options.maxEntries ?? 20000 };
    const maxTokens = options.maxTokens ?? 1500;
    const render = (cache: MapCache): string | null => {
      const { tree, truncated } = scanProject(kernel.projectRoot, scanOptions, cache.source);
      if (!tree.dirs.length && !tree.files.length) return null;
      const { text } = renderWithin(tree, maxTokens, estimateTextTokens);
      const note = `Files of the project at ${kernel.projectRoot} when the session started (ignored files left out; a folder with a count is not expanded${truncated ? '; the scan stopped early in this large tree' : ''}):`;
      return `<project-map>\n${note}\n${text}\n</project-map>`;
    };
    const build = (): SystemSection | null => {
      const cache = new MapCache(kernel.projectRoot, JSON.stringify([scanOptions, maxTokens, codeStamp()]));
      let text = cache.unchanged();
      if (text === undefined) cache.save((text = render(cache)));
      return text === null ? null : { id: 'project-map', part: 'projectMap', text };
    };
    // Sub-agents get it too: they search the same project.
    kernel.hooks.systemPrompt.tap('project-map', (sections) => {
      if (section === undefined) section = build();
      return section ? [...sections, section] : sections;
    });
  },
});
