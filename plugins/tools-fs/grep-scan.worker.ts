/**
 * A helper thread of the built-in Grep scanner: searches its share of the files and posts the hits.
 * (Started by grep.worker.ts inside a pool worker when a tree is big enough to split.)
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { GrepQuery } from './grep-query.js';
import { scanFiles } from './grep-scan.js';

const { files, query } = workerData as { files: string[]; query: GrepQuery };
parentPort!.postMessage(scanFiles(files, query, () => false));
