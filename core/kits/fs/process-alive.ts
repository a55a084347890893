/**
 * Whether a process with this id exists on this machine. A process we may not signal (EPERM)
 * exists; only "no such process" (ESRCH) means it is gone. Ids are reused, so "alive" can mean
 * "another process now has that id": callers that must know more compare a start time.
 */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
