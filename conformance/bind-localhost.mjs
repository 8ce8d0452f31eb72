/**
 * `--import` preload that keeps every TCP listener of the process on 127.0.0.1.
 *
 * The conformance suite's mock servers call `listen(0)` with no host, which binds every interface;
 * here nothing may listen beyond loopback. Rewriting the arguments of `listen()` is not enough:
 * as soon as a host is passed, Node resolves it with `dns.lookup`, which is asynchronous even for an
 * IP literal, so `server.address()` is still null on the next line, and the suite reads
 * `.address().port` right after `listen(0)`.
 *
 * Every TCP listen in Node, whatever the call signature (`listen()`, `listen(port)`,
 * `listen(port, cb)`, `listen({ port })`, `listen(port, '0.0.0.0' | '::')`, ...), ends in
 * `Server.prototype._listen2(address, port, addressType, backlog, fd, flags)`, which creates and binds
 * the handle synchronously. Node keeps that name precisely so code can wrap it. We swap an
 * unspecified address (none, `0.0.0.0`, `::`) for 127.0.0.1 there, so the binding stays synchronous
 * when it was synchronous before. Pipes, inherited handles and file descriptors are left alone, and
 * so is any explicit non-wildcard host.
 *
 * Usage: `node --import ./conformance/bind-localhost.mjs app.js`
 */
import net from 'node:net';

const LOOPBACK = '127.0.0.1';
const WILDCARDS = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0', '[::]']);

/**
 * Whether a listen address means "every interface".
 *
 * @example
 * isWildcardAddress('::'); // true
 * isWildcardAddress('127.0.0.1'); // false
 */
export function isWildcardAddress(address) {
  return address === null || address === undefined || address === '' || WILDCARDS.has(address);
}

const originalListen2 = net.Server.prototype._listen2;
if (typeof originalListen2 !== 'function') {
  // Failing loudly beats silently listening on every interface.
  throw new Error('bind-localhost: net.Server.prototype._listen2 is missing in this Node version');
}

net.Server.prototype._listen2 = function listenOnLoopback(address, port, addressType, backlog, fd, flags) {
  const isTcpPort = typeof port === 'number' && port >= 0;
  const hasOwnHandle = this._handle != null || (typeof fd === 'number' && fd >= 0);
  if (isTcpPort && !hasOwnHandle && isWildcardAddress(address)) {
    return originalListen2.call(this, LOOPBACK, port, 4, backlog, fd, flags);
  }
  return originalListen2.call(this, address, port, addressType, backlog, fd, flags);
};
