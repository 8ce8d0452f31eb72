/**
 * How long and how often each scenario runs. `full` is what results are published from (≈7–10 min on
 * 2 cores with three implementations), `quick` is for iterating, `smoke` only proves every scenario still
 * runs (CI; no timing assertions).
 * @module
 */

/**
 * @typedef {object} Profile
 * @property {string} name
 * @property {boolean} assert whether a MISS fails the run
 * @property {{ calls: number, http: number, memory: number, coldStart: number, importTime: number }} rounds
 * @property {{ warmupMs: number, durationMs: number }} calls in-memory and stdio
 * @property {{ warmupS: number, durationS: number, gatewayDurationS: number }} http autocannon runs (whole seconds: autocannon stops on its 1 s tick); `gatewayDurationS`: the gateway-peers rows
 * @property {{ sessions: number, gatewaySessions: number }} memory `gatewaySessions`: sessions opened per gateway in gateway-peers (some peers start a process per session)
 */

/** @type {Record<'smoke' | 'quick' | 'full', Profile>} */
export const PROFILES = {
  smoke: {
    name: 'smoke',
    assert: false,
    rounds: { calls: 1, http: 1, memory: 1, coldStart: 2, importTime: 2 },
    calls: { warmupMs: 50, durationMs: 200 },
    http: { warmupS: 0, durationS: 1, gatewayDurationS: 1 },
    memory: { sessions: 200, gatewaySessions: 3 },
  },
  quick: {
    name: 'quick',
    assert: true,
    rounds: { calls: 3, http: 2, memory: 1, coldStart: 5, importTime: 5 },
    calls: { warmupMs: 300, durationMs: 1000 },
    http: { warmupS: 1, durationS: 2, gatewayDurationS: 3 },
    memory: { sessions: 1000, gatewaySessions: 10 },
  },
  full: {
    name: 'full',
    assert: true,
    rounds: { calls: 5, http: 3, memory: 3, coldStart: 11, importTime: 11 },
    calls: { warmupMs: 500, durationMs: 2000 },
    http: { warmupS: 1, durationS: 3, gatewayDurationS: 8 },
    memory: { sessions: 1000, gatewaySessions: 20 },
  },
};
