/**
 * A process and everything it started, read from Linux's /proc: the gateways of the gateway-peers
 * rows run their upstreams (and some a shell in between, or a process per session) as children,
 * and what a gateway costs is the whole tree's CPU and memory. `undefined`/0 where /proc is not
 * there.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { processCpuUs } from './procStat.mjs';

/** Parent pid of every process, from /proc/<pid>/stat. */
function parents() {
  const map = new Map();
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return map;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the command name (which may hold spaces): state [0], ppid [1].
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(Number(entry), ppid);
    } catch {}
  }
  return map;
}

/**
 * `pid` and all its descendants.
 * @param {number} pid
 * @returns {number[]}
 * @example
 * processTree(gateway.pid); // [4100, 4112, 4113]
 */
export function processTree(pid) {
  const byParent = new Map();
  for (const [child, parent] of parents()) {
    const list = byParent.get(parent) ?? [];
    list.push(child);
    byParent.set(parent, list);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(byParent.get(tree[i]) ?? []));
  return tree;
}

/**
 * User plus system CPU µs of the processes of `pids` that still run (a process that exited takes
 * its time with it: measure trees whose members live through the measurement).
 * @param {number[]} pids
 * @example
 * treeCpuUs(processTree(gateway.pid)); // 2_340_000
 */
export function treeCpuUs(pids) {
  let total = 0;
  for (const pid of pids) total += processCpuUs(pid) ?? 0;
  return total;
}

/**
 * Resident set size of `pids` together, in bytes (VmRSS; shared pages count once per process, as
 * `ps` shows them).
 * @param {number[]} pids
 * @example
 * treeRssBytes(processTree(gateway.pid)); // 61_000_000
 */
export function treeRssBytes(pids) {
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (match) total += Number(match[1]) * 1024;
    } catch {}
  }
  return total;
}

/**
 * Sends `signal` to each of `pids` that still runs.
 * @param {number[]} pids
 * @param {NodeJS.Signals} signal
 * @example
 * signalAll(processTree(child.pid), 'SIGTERM');
 */
export function signalAll(pids, signal) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {}
  }
}
