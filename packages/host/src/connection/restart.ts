/**
 * The restart policy lives in `@mcpkit/client`, where a plain client's reconnection uses it too.
 * @module
 */
export {
  backoffDelay,
  CrashWindow,
  type RestartOptions,
  type RestartPolicy,
  restartPolicy,
} from '@mcpkit/client';
