/**
 * The CPU time another process has used, from Linux's /proc (the kernel counts in clock ticks of
 * 10 ms): how the stdio rows get the server's CPU per call, which is far steadier than calls/s on
 * a shared machine. `undefined` where /proc is not there.
 * @module
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (`getconf CLK_TCK`; 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * User plus system CPU time of process `pid` in microseconds, or `undefined`.
 * @param {number | undefined} pid
 * @example
 * processCpuUs(child.pid); // 1230000
 */
export function processCpuUs(pid) {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is [0], utime [11], stime [12].
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
