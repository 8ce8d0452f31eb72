/**
 * When to restart a server that died, and when to stop trying: exponential backoff with jitter,
 * a bound on consecutive failed starts, and a circuit that opens after too many crashes in a window.
 * @module
 */

/**
 * How a host restarts its servers, and how a reconnecting client reconnects.
 *
 * @example
 * ```ts
 * const restart: RestartOptions = { initialDelayMs: 200, maxAttempts: 3, circuitCrashes: 5, circuitWindowMs: 10_000 };
 * ```
 */
export interface RestartOptions {
  /** The delay before the first restart, doubled for each further attempt. Default 100 ms. */
  initialDelayMs?: number;
  /** The longest delay between attempts. Default 10 s. */
  maxDelayMs?: number;
  /** Consecutive failed starts before the server is marked `failed`. Default 5. */
  maxAttempts?: number;
  /** Crashes within `circuitWindowMs` that open the circuit (no more restarts). Default 5. */
  circuitCrashes?: number;
  /** The window of `circuitCrashes`. Default 10 s. */
  circuitWindowMs?: number;
}

/** {@link RestartOptions} with every default filled in. */
export type RestartPolicy = Required<RestartOptions>;

/**
 * Fills in the defaults.
 *
 * @example
 * ```ts
 * const policy = restartPolicy({ maxAttempts: 3 });
 * ```
 */
export function restartPolicy(options: RestartOptions = {}): RestartPolicy {
  return {
    initialDelayMs: options.initialDelayMs ?? 100,
    maxDelayMs: options.maxDelayMs ?? 10_000,
    maxAttempts: options.maxAttempts ?? 5,
    circuitCrashes: options.circuitCrashes ?? 5,
    circuitWindowMs: options.circuitWindowMs ?? 10_000,
  };
}

/**
 * The delay before attempt `attempt` (0-based): doubling from the initial delay, capped, with up
 * to 20% jitter so servers that died together do not restart in lockstep.
 *
 * @example
 * ```ts
 * declare function start(): void;
 * const policy = restartPolicy();
 * setTimeout(start, backoffDelay(policy, 2)); // about 400 ms by default
 * ```
 */
export function backoffDelay(policy: RestartPolicy, attempt: number): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(attempt, 30));
  return Math.round(base * (1 - Math.random() * 0.2));
}

/**
 * The crash times of one server inside the circuit window.
 *
 * @example
 * ```ts
 * declare function openCircuit(): void;
 * const crashes = new CrashWindow(restartPolicy());
 * if (crashes.record(Date.now())) openCircuit();
 * ```
 */
export class CrashWindow {
  private times: number[] = [];
  constructor(private readonly policy: RestartPolicy) {}

  /** Records a crash; true when the circuit should open. */
  record(now: number): boolean {
    this.times = this.times.filter((time) => now - time < this.policy.circuitWindowMs);
    this.times.push(now);
    return this.times.length >= this.policy.circuitCrashes;
  }

  /** Forgets every crash (a manual retry closes the circuit). */
  reset(): void {
    this.times = [];
  }

  /** Crashes inside the window. */
  get count(): number {
    return this.times.length;
  }
}
