/**
 * Creating a task (a task-augmented `tools/call` under 2025-11-25, or a call the tasks extension
 * answers with a task under 2026-07-28), and reading one under the extension.
 * @module
 */
import {
  type CallToolRequestParams,
  CapabilityError,
  type CreateTaskResult,
  ErrorCode,
  McpError,
  type OutgoingRequestOptions,
  type ProgressUpdate,
  type Task,
  type Tool,
} from '@mcpkit/core';
import {
  declaresTasksExtension,
  fromExtensionTask,
  isTask,
  missingServerCapability,
} from '@mcpkit/core/internal';
import type { Client } from './client.js';
import { isCreatedTask, TASK_HANDLING } from './era/tasks.js';
import type { CallToolAsTaskOptions } from './taskOptions.js';
import { ProgressWatch } from './taskProgress.js';

/**
 * Sends a task-augmented `tools/call`. With `onProgress`, the call carries a fresh progress token
 * followed by a {@link ProgressWatch} rather than the engine's own, which would die with the
 * request: a task's progress outlives the request that created it.
 */
export async function createToolTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: Omit<CallToolAsTaskOptions, 'onProgress'>,
  onProgress: ((update: ProgressUpdate) => void) | undefined,
): Promise<{ result: CreateTaskResult; progress: ProgressWatch | undefined }> {
  const { ttl, meta, checkTaskSupport, ...requestOptions } = options;
  if (client.era === '2026') {
    if (checkTaskSupport !== false) await assertTaskSupport(client, name);
    return {
      result: await createExtensionTask(client, name, args, meta, requestOptions),
      progress: undefined,
    };
  }
  const params: CallToolRequestParams = { name, arguments: args, task: ttl === undefined ? {} : { ttl } };
  if (meta) params._meta = meta;
  const gap = missingServerCapability('tools/call', params, client.serverCapabilities);
  if (gap) throw new CapabilityError(gap);
  if (checkTaskSupport !== false) await assertTaskSupport(client, name);
  const progress = onProgress ? new ProgressWatch(client, onProgress) : undefined;
  if (progress) {
    params._meta = { ...meta, progressToken: progress.token };
    // The token above must reach the server as is: the engine's own token would replace it.
    requestOptions.resetTimeoutOnProgress = false;
  }
  try {
    const result = await client.request<CreateTaskResult>('tools/call', params, requestOptions);
    if (!isTask(result?.task)) {
      throw new McpError(
        ErrorCode.InternalError,
        `The server answered a task-augmented call of "${name}" without a task`,
      );
    }
    return { result, progress };
  } catch (error) {
    progress?.stop();
    throw error;
  }
}

/**
 * A `tools/call` under the tasks extension, answered with the task itself (not followed). The
 * server decides whether to create one: a plain result here is an error, as under 2025-11-25.
 * No progress: the extension sends none for tasks.
 */
async function createExtensionTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta: Record<string, unknown> | undefined,
  options: OutgoingRequestOptions,
): Promise<CreateTaskResult> {
  if (!declaresTasksExtension(client.serverCapabilities)) {
    throw new CapabilityError(
      'The server did not declare the tasks extension (io.modelcontextprotocol/tasks)',
    );
  }
  const params: CallToolRequestParams = { name, arguments: args };
  if (meta) params._meta = meta;
  const sendOptions: OutgoingRequestOptions = { ...options };
  TASK_HANDLING.set(sendOptions, { raw: true });
  const result = await client.request<Record<string, unknown>>('tools/call', params, sendOptions);
  const task = isCreatedTask(result) ? fromExtensionTask(result) : undefined;
  if (!task) {
    throw new McpError(ErrorCode.InternalError, `The server answered the call of "${name}" without a task`);
  }
  return { task };
}

/** `tasks/get` under the extension, in the 2025 shape (the inlined result stays out). */
export async function getExtensionTask(
  client: Client,
  taskId: string,
  options: OutgoingRequestOptions | undefined,
): Promise<Task> {
  const detailed = await client.request('tasks/get', { taskId }, options);
  const task = fromExtensionTask(detailed);
  if (!task) throw new McpError(ErrorCode.InternalError, `The server answered tasks/get without a task`);
  return task;
}

async function assertTaskSupport(client: Client, name: string): Promise<void> {
  const lister = (client as Client & { tools?: () => Promise<Tool[]> }).tools;
  if (typeof lister !== 'function' || !client.serverCapabilities?.tools) return;
  const tool = (await lister.call(client)).find((candidate) => candidate.name === name);
  // An unknown tool is the server's to report (-32602), with its own message.
  if (!tool) return;
  const support = tool.execution?.taskSupport ?? 'forbidden';
  if (support === 'forbidden') {
    throw new CapabilityError(
      `Tool "${name}" does not support task execution (execution.taskSupport is "forbidden")`,
    );
  }
}
