/**
 * Human-readable output: tables that fit the terminal's width, and renderings of MCP results
 * (content blocks, resource contents, prompt messages). Colour is `terminalStyle.ts`.
 * @module
 */
import type {
  Annotations,
  CallToolResult,
  CompleteResult,
  ContentBlock,
  GetPromptResult,
  InitializeResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from '@mcpkit/core';
import { type OutputStream, type Style, visibleLength } from './terminalStyle.js';

export { createStyle, type OutputStream, type Style, wantsColor } from './terminalStyle.js';

/** The first line of `text`, shortened to `max` characters with an ellipsis. */
export function oneLine(text: string | undefined, max = Number.POSITIVE_INFINITY): string {
  const line = (text ?? '').split('\n', 1)[0]!.trim();
  if (line.length <= max) return line;
  return max <= 1 ? '…' : `${line.slice(0, max - 1)}…`;
}

/**
 * Lays out rows in columns. The last column is cut to fit `width` (when known); cells are padded
 * by their visible length, so colour does not break alignment.
 *
 * @example
 * ```ts
 * table([['echo', 'Echoes text']], ['NAME', 'DESCRIPTION'], style, 80);
 * ```
 */
export function table(
  rows: ReadonlyArray<readonly string[]>,
  headers: readonly string[],
  style: Style,
  width: number | undefined,
): string {
  const all = [headers.map((header) => style.bold(header)), ...rows];
  const count = headers.length;
  const widths = Array.from({ length: count - 1 }, (_, column) =>
    Math.max(...all.map((row) => visibleLength(row[column] ?? ''))),
  );
  const lead = widths.reduce((sum, w) => sum + w + 2, 0);
  const lastMax = width === undefined ? Number.POSITIVE_INFINITY : Math.max(12, width - lead);
  return all
    .map((row, index) => {
      const cells = widths.map((w, column) => pad(row[column] ?? '', w));
      const last = row[count - 1] ?? '';
      cells.push(index === 0 ? last : style.dim(oneLine(last, lastMax)));
      return cells.join('  ').trimEnd();
    })
    .join('\n');
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - visibleLength(text)));
}

/**
 * Describes the server: name, version, revision, capabilities and instructions.
 *
 * @example
 * ```ts
 * out.write(renderInfo(client.serverResult!, style));
 * ```
 */
export function renderInfo(result: InitializeResult, style: Style): string {
  const info = result.serverInfo;
  const title = info.title && info.title !== info.name ? ` (${info.title})` : '';
  const lines = [
    `${style.bold('Server')}        ${info.name} ${info.version}${title}`,
    `${style.bold('Protocol')}      ${result.protocolVersion}`,
    `${style.bold('Era')}           ${eraOf(result.protocolVersion)}`,
    `${style.bold('Capabilities')}  ${describeCapabilities(result.capabilities) || style.dim('none')}`,
  ];
  if (info.websiteUrl) lines.push(`${style.bold('Website')}       ${info.websiteUrl}`);
  if (result.instructions) {
    lines.push(style.bold('Instructions'));
    for (const line of result.instructions.split('\n')) lines.push(`  ${line}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The era a revision belongs to, as `mcpkit info` shows it (revisions are dates). */
function eraOf(version: string): string {
  return version >= '2026-07-28' ? '2026 (per-request metadata, no session)' : '2025 (initialize session)';
}

/**
 * One line per capability, with its flags: `tools (listChanged), logging`.
 *
 * @example
 * ```ts
 * describeCapabilities({ tools: { listChanged: true }, logging: {} }); // 'tools (listChanged), logging'
 * ```
 */
export function describeCapabilities(capabilities: ServerCapabilities): string {
  return Object.entries(capabilities)
    .filter(([, value]) => value !== undefined && value !== null && value !== false)
    .map(([name, value]) => {
      const flags = flagsOf(value);
      return flags.length > 0 ? `${name} (${flags.join(', ')})` : name;
    })
    .join(', ');
}

function flagsOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const flags: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (inner === true) flags.push(prefix + key);
    else if (typeof inner === 'object' && inner !== null) {
      const nested = flagsOf(inner, `${prefix}${key}.`);
      flags.push(...(nested.length > 0 ? nested : [prefix + key]));
    }
  }
  return flags;
}

/** The lists `mcpkit list` shows, each present only when the server supports it. */
export interface Listing {
  tools?: Tool[];
  resources?: Resource[];
  resourceTemplates?: ResourceTemplate[];
  prompts?: Prompt[];
}

/**
 * Renders lists as titled tables.
 *
 * @example
 * ```ts
 * out.write(renderListing({ tools }, style, process.stdout.columns));
 * ```
 */
export function renderListing(listing: Listing, style: Style, width: number | undefined): string {
  const sections: string[] = [];
  const section = (title: string, count: number, body: string) =>
    sections.push(`${style.bold(`${title} (${count})`)}\n${count === 0 ? style.dim('  none') : body}`);
  // Tools and prompts: a name, what to pass, what it does.
  // Behind `--config FILE` each carries the `server` that offers it: a SERVER column.
  const named = <T extends { name: string; title?: string; description?: string; server?: string }>(
    title: string,
    items: readonly T[],
    args: (item: T) => string,
  ) => {
    const servers = items.some((item) => item.server !== undefined);
    const rows = items.map((item) => [
      style.cyan(item.name),
      ...(servers ? [item.server ?? ''] : []),
      args(item),
      item.description ?? item.title ?? '',
    ]);
    const headers = servers
      ? ['NAME', 'SERVER', 'ARGUMENTS', 'DESCRIPTION']
      : ['NAME', 'ARGUMENTS', 'DESCRIPTION'];
    section(title, rows.length, table(rows, headers, style, width));
  };
  if (listing.tools) named('Tools', listing.tools, argumentSummary);
  if (listing.resources) {
    const rows = listing.resources.map((r) => [
      style.cyan(r.uri),
      r.name,
      r.mimeType ?? '',
      r.description ?? r.title ?? '',
    ]);
    section('Resources', rows.length, table(rows, ['URI', 'NAME', 'TYPE', 'DESCRIPTION'], style, width));
  }
  if (listing.resourceTemplates) {
    const rows = listing.resourceTemplates.map((t) => [
      style.cyan(t.uriTemplate),
      t.name,
      t.description ?? t.title ?? '',
    ]);
    section(
      'Resource templates',
      rows.length,
      table(rows, ['URI TEMPLATE', 'NAME', 'DESCRIPTION'], style, width),
    );
  }
  if (listing.prompts) named('Prompts', listing.prompts, promptArgumentSummary);
  return sections.length === 0
    ? `${style.dim('The server offers no tools, resources or prompts.')}\n`
    : `${sections.join('\n\n')}\n`;
}

function argumentSummary(tool: Tool): string {
  const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return Object.keys(schema.properties ?? {})
    .map((name) => (required.has(name) ? name : `${name}?`))
    .join(' ');
}

function promptArgumentSummary(prompt: Prompt): string {
  return (prompt.arguments ?? []).map((a) => (a.required ? a.name : `${a.name}?`)).join(' ');
}

/**
 * Renders a tool result: text as is, other blocks as one descriptive line each; structured
 * content as JSON when no text block carries it. `saved` names the file each binary block was
 * written to (`call --out`), by its index.
 *
 * @example
 * ```ts
 * out.write(renderToolResult(result, style));
 * ```
 */
export function renderToolResult(
  result: CallToolResult,
  style: Style,
  saved?: ReadonlyMap<number, string>,
): string {
  const blocks = (result.content ?? []).map((block, index) => renderBlock(block, style, saved?.get(index)));
  const hasText = (result.content ?? []).some((block) => block.type === 'text');
  if (result.structuredContent !== undefined && !hasText) {
    blocks.push(JSON.stringify(result.structuredContent, null, 2));
  }
  return blocks.length === 0 ? `${style.dim('(no content)')}\n` : `${blocks.join('\n')}\n`;
}

/**
 * One content block as text; `savedAs`, the file a binary block was written to.
 *
 * @example
 * ```ts
 * renderBlock({ type: 'image', data: 'iVBO', mimeType: 'image/png' }, style); // '[image image/png, 3 B]'
 * ```
 */
export function renderBlock(block: ContentBlock, style: Style, savedAs?: string): string {
  const notes = describeAnnotations(block.annotations);
  const suffix = notes ? ` ${style.dim(`(${notes})`)}` : '';
  const saved = savedAs ? ` → ${savedAs}` : '';
  switch (block.type) {
    case 'text':
      return block.text + suffix;
    case 'image':
    case 'audio':
      return (
        style.dim(`[${block.type} ${block.mimeType}, ${formatBytes(base64Size(block.data))}${saved}]`) +
        suffix
      );
    case 'resource_link': {
      const mime = block.mimeType ? ` ${block.mimeType}` : '';
      const label = block.title ?? block.name;
      return `${style.cyan('→')} ${label} ${style.cyan(block.uri)}${style.dim(mime)}${suffix}`;
    }
    case 'resource': {
      const resource = block.resource;
      const head = style.dim(`[resource ${resource.uri}${resource.mimeType ? ` ${resource.mimeType}` : ''}]`);
      const body =
        'text' in resource
          ? resource.text
          : style.dim(`[${formatBytes(base64Size(resource.blob))} of binary data${saved}]`);
      return `${head}${suffix}\n${body}`;
    }
    default:
      return style.dim(`[${(block as { type: string }).type} content]`);
  }
}

function describeAnnotations(annotations: Annotations | undefined): string {
  if (!annotations) return '';
  const parts: string[] = [];
  if (annotations.audience) parts.push(`for ${annotations.audience.join(' and ')}`);
  if (annotations.priority !== undefined) parts.push(`priority ${annotations.priority}`);
  if (annotations.lastModified) parts.push(`modified ${annotations.lastModified}`);
  return parts.join(', ');
}

/**
 * Renders resource contents: text as is; binary as a note (the caller writes raw bytes instead
 * when stdout is not a terminal).
 *
 * @example
 * ```ts
 * out.write(renderResource(await client.readResource(uri), style));
 * ```
 */
export function renderResource(result: ReadResourceResult, style: Style): string {
  const many = result.contents.length > 1;
  const parts = result.contents.map((contents) => {
    const head = many
      ? `${style.bold(`── ${contents.uri}`)}${contents.mimeType ? style.dim(` ${contents.mimeType}`) : ''}\n`
      : '';
    if ('text' in contents && typeof contents.text === 'string') return head + contents.text;
    const size = formatBytes(base64Size((contents as { blob: string }).blob));
    return `${head}${style.dim(`[${size} of ${contents.mimeType ?? 'binary data'}; redirect stdout to a file to save it]`)}`;
  });
  return `${parts.join('\n')}\n`;
}

/**
 * Renders a prompt's messages, each under its role.
 *
 * @example
 * ```ts
 * out.write(renderPrompt(await client.getPrompt('greet', { name: 'Ada' }), style));
 * ```
 */
export function renderPrompt(result: GetPromptResult, style: Style): string {
  const lines: string[] = [];
  if (result.description) lines.push(style.dim(result.description), '');
  for (const message of result.messages) {
    lines.push(style.bold(`${message.role}:`));
    lines.push(renderBlock(message.content as ContentBlock, style));
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * Renders completion values, one per line, and how many more there are.
 *
 * @example
 * ```ts
 * out.write(renderCompletion(result, style));
 * ```
 */
export function renderCompletion(result: CompleteResult, style: Style): string {
  const { values, total, hasMore } = result.completion;
  const lines = values.length === 0 ? [style.dim('(no completions)')] : [...values];
  const more = total !== undefined && total > values.length ? total - values.length : undefined;
  if (more !== undefined) lines.push(style.dim(`… and ${more} more`));
  else if (hasMore) lines.push(style.dim('… and more'));
  return `${lines.join('\n')}\n`;
}

/** Decoded size of base64 text, without decoding it. */
export function base64Size(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/**
 * `1536` → `1.5 KB`.
 *
 * @example
 * ```ts
 * formatBytes(2048); // '2.0 KB'
 * ```
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Prints JSON exactly, two-space indented, with a final newline.
 *
 * @example
 * ```ts
 * writeJson(process.stdout, { tools });
 * ```
 */
export function writeJson(stream: OutputStream, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}
