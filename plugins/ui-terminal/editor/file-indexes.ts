import { realPath, type Kernel } from '../../../core/index.js';
import { addedDirectoriesOf } from '../../../core/kits/fs/index.js';
import { FileIndex } from './complete.js';

/** What `@` completion lists: paths (folders ending in `/`), loaded in the background. */
export interface FileSource {
  readonly ready: readonly string[] | undefined;
  load(): Promise<unknown>;
}

/**
 * `@` completion over the project and the added folders (`--add-dir`, `/add-dir`): the project's
 * files relative to the working directory, an added folder's by their full path (what a mention
 * of them resolves). Each folder is listed once, on first use; a folder added later is listed then.
 */
export class FileIndexes implements FileSource {
  private readonly added = new Map<string, FileIndex>();

  constructor(
    private readonly project: FileIndex,
    private readonly addedDirs: () => readonly string[],
  ) {}

  private indexes(): FileIndex[] {
    for (const dir of this.addedDirs()) if (!this.added.has(dir)) this.added.set(dir, new FileIndex(dir, undefined, dir.endsWith('/') ? dir : `${dir}/`));
    return [this.project, ...this.added.values()];
  }

  /** Every listing, once each is done; undefined while one is still being made. */
  get ready(): readonly string[] | undefined {
    const lists = this.indexes().map((index) => index.ready);
    return lists.every((list) => list !== undefined) ? lists.flat() : undefined;
  }

  load(): Promise<unknown> {
    return Promise.all(this.indexes().map((index) => index.load()));
  }
}

/** What `@` completes in a kernel's terminal: the working directory's files and the added folders'. */
export function completionFiles(kernel: Kernel): FileIndexes {
  return new FileIndexes(new FileIndex(kernel.cwd), () => addedDirectoriesOf(kernel, realPath(kernel.projectRoot)));
}
