// The pool threads' entry in tsc's tree (the bundle's is its own CommonJS worker.cjs). piscina loads
// an entry with require() first, and Node 20 aborts the whole process when a thread is terminated
// while require() instantiates an ES module: the pool ends threads still loading at shutdown. So the
// entry is CommonJS, and it imports the ES module worker asynchronously.
import type { WorkerOutcome, WorkerPayload } from './worker.js' with { 'resolution-mode': 'import' };

export = async (payload: WorkerPayload): Promise<WorkerOutcome> => (await import('./worker.js')).default(payload);
