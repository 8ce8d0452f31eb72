/**
 * Answers to the requests a server sends the CLI: sampling (refused, or delegated to
 * `--sampling-command`), elicitation (asked on a terminal, declined otherwise) and roots
 * (`--root DIR`).
 * @module
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FormElicitationHandler, SamplingHandler, UrlElicitationHandler } from '@mcpkit/client';
import { type CreateMessageResult, type ElicitResult, ErrorCode, McpError, type Root } from '@mcpkit/core';
import { askForm, askUrl, type FormTerminal } from './form.js';
import type { Style } from './output.js';

/** The error code a client answers with when sampling is refused (the spec's example code). */
export const SAMPLING_REFUSED = -1;

/** Largest output read from a sampling command. */
const MAX_SAMPLING_OUTPUT = 16 * 1024 * 1024;

/** Where notes about server requests go (stderr). */
export type Notice = (text: string) => void;

/**
 * The sampling handler: refuses clearly without a command, otherwise runs `command` through the
 * shell with the request's params as JSON on stdin. Its stdout is the result: a JSON
 * `CreateMessageResult`, or plain text taken as the assistant's reply.
 *
 * @example
 * ```ts
 * const sampling = samplingHandler('python my_model.py', notice);
 * ```
 */
export function samplingHandler(command: string | undefined, notice: Notice): SamplingHandler {
  return async (params, context) => {
    if (command === undefined) {
      notice(
        'The server asked for a model completion (sampling); refused. Pass --sampling-command CMD to answer.',
      );
      throw new McpError(
        SAMPLING_REFUSED,
        'Sampling refused: the mcpkit CLI answers sampling only when run with --sampling-command',
      );
    }
    notice(`The server asked for a model completion; running: ${command}`);
    const output = await runSamplingCommand(command, JSON.stringify(params), context.signal, notice);
    return parseSamplingOutput(output);
  };
}

function runSamplingCommand(
  command: string,
  input: string,
  signal: AbortSignal,
  notice: Notice,
): Promise<string> {
  return new Promise((resolve, reject) => {
    // The user wrote a command line, so it runs through the shell like any other they type.
    const child = spawn(command, { shell: true, stdio: ['pipe', 'pipe', 'inherit'], signal });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_SAMPLING_OUTPUT) child.kill();
      else chunks.push(chunk);
    });
    child.stdin.on('error', () => {
      // A command that exits without reading its input is judged by its exit status.
    });
    child.on('error', (error) => {
      notice(`The sampling command could not run: ${error.message}`);
      reject(new McpError(ErrorCode.InternalError, 'The client could not produce a completion'));
    });
    child.on('close', (code, killedBy) => {
      if (code === 0) return resolve(Buffer.concat(chunks).toString('utf8'));
      notice(`The sampling command failed (${killedBy ? `signal ${killedBy}` : `exit code ${code}`}).`);
      reject(new McpError(ErrorCode.InternalError, 'The client could not produce a completion'));
    });
    child.stdin.end(input);
  });
}

/**
 * Reads a sampling command's output: a JSON result, or plain text as the assistant's message.
 *
 * @example
 * ```ts
 * parseSamplingOutput('Hello!'); // { role: 'assistant', content: { type: 'text', text: 'Hello!' }, model: 'sampling-command' }
 * ```
 */
export function parseSamplingOutput(output: string): CreateMessageResult {
  const text = output.trim();
  if (text.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    const result = value as Partial<CreateMessageResult> | undefined;
    if (result && typeof result === 'object' && result.content !== undefined) {
      return {
        role: result.role ?? 'assistant',
        model: result.model ?? 'sampling-command',
        ...result,
      } as CreateMessageResult;
    }
  }
  return {
    role: 'assistant',
    content: { type: 'text', text },
    model: 'sampling-command',
    stopReason: 'endTurn',
  };
}

/**
 * The elicitation handlers: questions on an interactive terminal, a clear decline otherwise.
 *
 * @example
 * ```ts
 * const elicitation = elicitationHandlers(isInteractive ? terminal : undefined, style, notice);
 * ```
 */
export function elicitationHandlers(
  terminal: FormTerminal | undefined,
  style: Style,
  notice: Notice,
  /** Hides the progress bar while the user is being asked, and shows it again after. */
  pauseProgress: (paused: boolean) => void,
): { form: FormElicitationHandler; url: UrlElicitationHandler } {
  const decline = (kind: string, message: string): ElicitResult => {
    notice(
      `The server asked for ${kind} ("${message}"); declined, because stdin is not an interactive terminal.`,
    );
    return { action: 'decline' };
  };
  // One question at a time: two concurrent elicitations must not interleave on one terminal.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => {});
    return next;
  };
  return {
    form: (params, context) => {
      if (!terminal) return Promise.resolve(decline('input', params.message));
      return serialized(() =>
        prompting(pauseProgress, () => askForm(params, terminal, style, context.signal)),
      );
    },
    url: (params, context) => {
      if (!terminal) return Promise.resolve(decline('a visit to a web page', params.message));
      return serialized(() =>
        prompting(pauseProgress, () => askUrl(params, terminal, style, context.signal)),
      );
    },
  };
}

async function prompting<T>(pauseProgress: (paused: boolean) => void, ask: () => Promise<T>): Promise<T> {
  pauseProgress(true);
  try {
    return await ask();
  } finally {
    pauseProgress(false);
  }
}

/**
 * `--root DIR` values as `file://` roots, resolved against `cwd`.
 *
 * @example
 * ```ts
 * rootsFromDirectories(['.'], '/home/me/project'); // [{ uri: 'file:///home/me/project', name: 'project' }]
 * ```
 */
export function rootsFromDirectories(directories: readonly string[], cwd: string): Root[] {
  return directories.map((directory) => {
    const absolute = path.resolve(cwd, directory);
    return { uri: pathToFileURL(absolute).href, name: path.basename(absolute) || absolute };
  });
}
