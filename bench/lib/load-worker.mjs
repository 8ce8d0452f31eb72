/**
 * Worker process that drives one HTTP load measurement with autocannon, so the load generator never shares
 * a process (or an event loop) with the harness or the server.
 *
 * Task (via IPC): { url, headers, body, bodies?, connections, warmupS, durationS, expectText }
 * (`bodies`: several templates sent in turn, e.g. calls spread over several tools)
 * Reply: { ok: true, result: { value, requests, p50Ms, p99Ms, ... } } | { ok: false, error }
 * @module
 */
import autocannon from 'autocannon';

/**
 * A cheap per-response check that the body carries the echoed text and is not a tool error. Key order and
 * framing (JSON or SSE) vary between implementations; this substring does not.
 * @param {string} text
 */
function echoBodyCheck(text) {
  const needle = `"text":${JSON.stringify(text)}`;
  return (body) => body.includes(needle) && !body.includes('"isError":true') && !body.includes('"error":');
}

/**
 * A request source that gives every request its own numeric JSON-RPC id (the transports route responses
 * by id). autocannon's own `idReplacement` cannot be used: it computes Content-Length for a fixed id length
 * that its id generator does not produce, so the server waits for bytes that never come.
 * @param {string[]} templates request bodies with `"[<id>]"` where the id goes, sent in turn
 */
function uniqueIdRequests(templates) {
  const parts = templates.map((template) => {
    const [head, tail] = template.split('"[<id>]"');
    if (tail === undefined) throw new Error('body template has no "[<id>]" placeholder');
    return [head, tail];
  });
  let nextId = 0;
  return [
    {
      setupRequest: (request) => {
        const [head, tail] = parts[nextId % parts.length];
        return { ...request, body: `${head}${++nextId}${tail}` };
      },
    },
  ];
}

async function runTask(task) {
  const options = {
    url: task.url,
    method: 'POST',
    headers: task.headers,
    requests: uniqueIdRequests(task.bodies ?? [task.body]),
    connections: task.connections,
    verifyBody: echoBodyCheck(task.expectText),
    timeout: 10,
  };
  if (task.warmupS > 0) await autocannon({ ...options, duration: task.warmupS });
  const result = await autocannon({ ...options, duration: task.durationS });
  if (result.requests.total === 0) throw new Error('load run completed no requests');
  const failures = result.non2xx + result.errors + result.timeouts + result.mismatches;
  if (failures > 0) {
    throw new Error(
      `load run had failures: non2xx=${result.non2xx} errors=${result.errors} timeouts=${result.timeouts} ` +
        `mismatches=${result.mismatches} of ${result.requests.total} requests`,
    );
  }
  return {
    value: result['2xx'] / result.duration,
    requests: result.requests.total,
    durationS: result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: result.latency.average,
  };
}

process.once('message', (task) => {
  runTask(task).then(
    (result) => process.send?.({ ok: true, result }, () => process.disconnect()),
    (error) => process.send?.({ ok: false, error: String(error?.stack ?? error) }, () => process.exit(1)),
  );
});
