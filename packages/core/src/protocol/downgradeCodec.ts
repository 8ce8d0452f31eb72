/**
 * The codec for one older revision: adapts a message built in the 2025-11-25 shape to what a peer
 * on that revision understands (the rules and the choices are listed in `codecs.ts`).
 * @module
 */
import { isRecord } from '../shared.js';
import { NOT_IN_REVISION, type RevisionCodec, type WireParams } from './codec.js';
import {
  describeJson,
  describeValue,
  type Json,
  jsonEqual,
  patch,
  patchList,
  patchObject,
  textBlock,
  without,
} from './copyOnWrite.js';
import { type Has, REVISION_FEATURES, type RevisionFeature, revisionHas } from './revisionFeatures.js';
import type { ProtocolVersion } from './revisions.js';
import { type StripLists, stripListsFor } from './stripLists.js';
import { RELATED_TASK_META_KEY } from './types.js';

export class DowngradeCodec implements RevisionCodec {
  readonly acceptsBatches: boolean;
  readonly #has: Has;
  readonly #strip: StripLists;

  constructor(readonly version: ProtocolVersion) {
    this.acceptsBatches = version === '2025-03-26';
    const has = {} as Record<RevisionFeature, boolean>;
    for (const feature of Object.keys(REVISION_FEATURES) as RevisionFeature[]) {
      has[feature] = revisionHas(version, feature);
    }
    this.#has = has;
    this.#strip = stripListsFor(has);
  }

  encodeResult(method: string, result: Record<string, unknown>): Record<string, unknown> {
    const adapted = this.#adaptResult(method, result);
    return this.#has.tasks ? adapted : this.#withoutRelatedTask(adapted);
  }

  encodeParams(method: string, params: WireParams): WireParams | typeof NOT_IN_REVISION {
    if (!this.#hasMethod(method, params)) return NOT_IN_REVISION;
    if (params === undefined) return params;
    const adapted = this.#adaptParams(method, params);
    if (adapted === NOT_IN_REVISION) return adapted;
    return this.#has.tasks ? adapted : this.#withoutRelatedTask(adapted);
  }

  #hasMethod(method: string, params: WireParams): boolean {
    switch (method) {
      case 'elicitation/create':
        return this.#has.elicitation;
      case 'tasks/get':
      case 'tasks/result':
      case 'tasks/list':
      case 'tasks/cancel':
      case 'notifications/tasks/status':
        return this.#has.tasks;
      case 'notifications/elicitation/complete':
        return this.#has.urlElicitation;
      case 'notifications/cancelled':
        return this.#has.optionalCancelRequestId || params?.requestId !== undefined;
      default:
        return true;
    }
  }

  #adaptResult(method: string, result: Json): Json {
    switch (method) {
      case 'initialize':
        return this.#initializeResult(result);
      case 'tools/list':
        return patchList(result, 'tools', (tool) => this.#tool(tool));
      case 'tools/call':
        return this.#callToolResult(result);
      case 'prompts/list':
        return patchList(result, 'prompts', (prompt) => this.#prompt(prompt));
      case 'prompts/get':
        return patchList(result, 'messages', (message) => this.#promptMessage(message));
      case 'resources/list':
        return patchList(result, 'resources', (resource) => this.#resource(resource));
      case 'resources/templates/list':
        return patchList(result, 'resourceTemplates', (template) => this.#resource(template));
      case 'resources/read':
        return patchList(result, 'contents', (contents) => this.#resourceContents(contents));
      case 'roots/list':
        return patchList(result, 'roots', (root) =>
          isRecord(root) ? without(root, this.#strip.dataTypeMeta) : root,
        );
      case 'sampling/createMessage':
        return this.#createMessageResult(result);
      case 'elicitation/create':
        return this.#elicitResult(result);
      default:
        return result;
    }
  }

  #adaptParams(method: string, params: Json): Json | typeof NOT_IN_REVISION {
    switch (method) {
      case 'initialize':
        return this.#initializeParams(params);
      case 'tools/call':
        return without(params, this.#strip.taskParam);
      case 'completion/complete':
        return this.#completeParams(params);
      case 'sampling/createMessage':
        return this.#createMessageParams(params);
      case 'elicitation/create':
        return this.#elicitParams(params);
      case 'notifications/progress':
        return this.#has.progressMessage ? params : without(params, ['message']);
      default:
        return params;
    }
  }

  #withoutRelatedTask(object: Json): Json {
    return patchObject(object, '_meta', (meta) => without(meta, [RELATED_TASK_META_KEY]));
  }

  // --- lifecycle -------------------------------------------------------------------------------

  #implementation(info: Json): Json {
    return without(info, this.#strip.implementation);
  }

  #initializeResult(result: Json): Json {
    const adapted = patchObject(result, 'serverInfo', (info) => this.#implementation(info));
    return patchObject(adapted, 'capabilities', (caps) => without(caps, this.#strip.serverCapabilities));
  }

  #initializeParams(params: Json): Json {
    const adapted = patchObject(params, 'clientInfo', (info) => this.#implementation(info));
    return patchObject(adapted, 'capabilities', (caps) => this.#clientCapabilities(caps));
  }

  #clientCapabilities(caps: Json): Json {
    let adapted = without(caps, this.#strip.clientCapabilities);
    if (this.#has.capabilitySubFlags) return adapted;
    adapted = patchObject(adapted, 'sampling', (sampling) => without(sampling, ['context', 'tools']));
    const elicitation = adapted.elicitation;
    if (isRecord(elicitation)) {
      // In 2025-11-25 `{}` means form mode; a URL-only client has nothing an older server can use.
      const urlOnly = elicitation.url !== undefined && elicitation.form === undefined;
      adapted = patch(adapted, 'elicitation', urlOnly ? undefined : without(elicitation, ['form', 'url']));
    }
    return adapted;
  }

  // --- server features -------------------------------------------------------------------------

  #annotations(owner: Json): Json {
    if (this.#has.annotationsLastModified) return owner;
    return patchObject(owner, 'annotations', (annotations) => without(annotations, ['lastModified']));
  }

  #tool(tool: unknown): unknown {
    return isRecord(tool) ? without(tool, this.#strip.tool) : tool;
  }

  #prompt(prompt: unknown): unknown {
    if (!isRecord(prompt)) return prompt;
    const adapted = without(prompt, this.#strip.prompt);
    return patchList(adapted, 'arguments', (argument) =>
      isRecord(argument) ? without(argument, this.#strip.title) : argument,
    );
  }

  #resource(resource: unknown): unknown {
    return isRecord(resource) ? this.#annotations(without(resource, this.#strip.resource)) : resource;
  }

  #resourceContents(contents: unknown): unknown {
    return isRecord(contents) ? without(contents, this.#strip.dataTypeMeta) : contents;
  }

  #promptMessage(message: unknown): unknown {
    return isRecord(message) ? patch(message, 'content', this.#contentBlock(message.content)) : message;
  }

  #callToolResult(result: Json): Json {
    let adapted = patchList(result, 'content', (block) => this.#contentBlock(block));
    if (this.#has.structuredOutput || !Object.hasOwn(adapted, 'structuredContent')) return adapted;
    const structured = adapted.structuredContent;
    adapted = without(adapted, ['structuredContent']);
    if (structured === undefined || carriesJson(adapted.content, structured)) return adapted;
    // The spec asks tools that return structured content to also return it as serialized text;
    // an older client only reads `content`, so that text must be there.
    const content = Array.isArray(adapted.content) ? adapted.content : [];
    return patch(adapted, 'content', [...content, textBlock(describeJson(structured), undefined)]);
  }

  #completeParams(params: Json): Json {
    if (this.#has.completionContext) return params;
    const adapted = without(params, ['context']);
    return patchObject(adapted, 'ref', (ref) => without(ref, this.#strip.title));
  }

  // --- content ---------------------------------------------------------------------------------

  #contentBlock(block: unknown): unknown {
    if (!isRecord(block)) return block;
    switch (block.type) {
      case 'audio':
        if (!this.#has.audioContent) return this.#audioAsText(block);
        break;
      case 'resource_link':
        if (!this.#has.resourceLinks) return this.#resourceLinkAsText(block);
        return this.#annotations(without(block, this.#strip.resourceLink));
      case 'resource': {
        const adapted = patchObject(block, 'resource', (contents) =>
          without(contents, this.#strip.dataTypeMeta),
        );
        return this.#annotations(without(adapted, this.#strip.dataTypeMeta));
      }
      case 'tool_use':
        if (!this.#has.samplingTools) return this.#toolUseAsText(block);
        break;
      case 'tool_result':
        if (!this.#has.samplingTools) return this.#toolResultAsText(block);
        break;
    }
    return this.#annotations(without(block, this.#strip.dataTypeMeta));
  }

  #downgradedAnnotations(block: Json): unknown {
    const annotations = block.annotations;
    return isRecord(annotations) ? this.#annotations({ annotations }).annotations : undefined;
  }

  #audioAsText(block: Json): Json {
    const mimeType = typeof block.mimeType === 'string' ? ` (${block.mimeType})` : '';
    const note = `[audio content${mimeType} omitted: protocol revision ${this.version} cannot carry audio]`;
    return textBlock(note, this.#downgradedAnnotations(block));
  }

  #resourceLinkAsText(block: Json): Json {
    const label = typeof block.title === 'string' ? block.title : block.name;
    let text = `Resource link: ${typeof label === 'string' ? `${label} ` : ''}<${describeValue(block.uri)}>`;
    if (typeof block.mimeType === 'string') text += ` (${block.mimeType})`;
    if (typeof block.description === 'string') text += `\n${block.description}`;
    return textBlock(text, this.#downgradedAnnotations(block));
  }

  #toolUseAsText(block: Json): Json {
    const text = `[tool call ${describeValue(block.name)} (id ${describeValue(block.id)}): ${describeJson(block.input)}]`;
    return textBlock(text, undefined);
  }

  #toolResultAsText(block: Json): Json {
    const inner = Array.isArray(block.content) ? block.content.map((item) => this.#plainText(item)) : [];
    if (inner.length === 0 && block.structuredContent !== undefined)
      inner.push(describeJson(block.structuredContent));
    const status = block.isError === true ? ' (error)' : '';
    return textBlock(
      `[tool result for ${describeValue(block.toolUseId)}${status}]\n${inner.join('\n')}`,
      undefined,
    );
  }

  /** A block's text, or a note naming what could not be shown as text. */
  #plainText(block: unknown): string {
    if (!isRecord(block)) return '';
    if (block.type === 'text' && typeof block.text === 'string') return block.text;
    const converted = this.#contentBlock(block);
    if (isRecord(converted) && converted.type === 'text' && typeof converted.text === 'string')
      return converted.text;
    return `[${describeValue(block.type)} content omitted]`;
  }

  // --- client features -------------------------------------------------------------------------

  #createMessageParams(params: Json): Json {
    if (this.#has.samplingTools) return params;
    const adapted = without(params, ['tools', 'toolChoice', 'task']);
    const messages = adapted.messages;
    if (!Array.isArray(messages)) return adapted;
    let copy: unknown[] | undefined;
    for (let i = 0; i < messages.length; i++) {
      const message: unknown = messages[i];
      const converted = this.#samplingMessage(message);
      if (copy === undefined && converted !== message) copy = messages.slice(0, i);
      if (copy === undefined) continue;
      if (Array.isArray(converted)) copy.push(...converted);
      else copy.push(converted);
    }
    return copy ? patch(adapted, 'messages', copy) : adapted;
  }

  /** One 2025-11-25 sampling message as one or more older ones (older messages hold one block). */
  #samplingMessage(message: unknown): unknown {
    if (!isRecord(message)) return message;
    const base = without(message, ['_meta']);
    const content = base.content;
    if (!Array.isArray(content)) return patch(base, 'content', this.#contentBlock(content));
    const blocks = content.map((block) => this.#contentBlock(block));
    if (blocks.length === 0) return patch(base, 'content', textBlock('', undefined));
    if (blocks.length === 1) return patch(base, 'content', blocks[0]);
    return blocks.map((block) => ({ ...base, content: block }));
  }

  #createMessageResult(result: Json): Json {
    if (this.#has.samplingTools) return result;
    const content = result.content;
    let adapted = patch(
      result,
      'content',
      Array.isArray(content) ? this.#singleBlock(content) : this.#contentBlock(content),
    );
    if (adapted.stopReason === 'toolUse') adapted = patch(adapted, 'stopReason', 'endTurn');
    return adapted;
  }

  /** Older results hold exactly one block: several are merged into one text. */
  #singleBlock(blocks: readonly unknown[]): unknown {
    if (blocks.length === 1) return this.#contentBlock(blocks[0]);
    return textBlock(blocks.map((block) => this.#plainText(block)).join('\n'), undefined);
  }

  #elicitParams(params: Json): Json | typeof NOT_IN_REVISION {
    if (this.#has.urlElicitation) return params;
    if (params.mode !== undefined && params.mode !== 'form') return NOT_IN_REVISION;
    const adapted = without(params, ['mode', 'task']);
    const schema = adapted.requestedSchema;
    if (!isRecord(schema)) return adapted;
    const requestedSchema = this.#requestedSchema(schema);
    return requestedSchema === NOT_IN_REVISION
      ? requestedSchema
      : patch(adapted, 'requestedSchema', requestedSchema);
  }

  #requestedSchema(schema: Json): Json | typeof NOT_IN_REVISION {
    const adapted = without(schema, ['$schema']);
    const properties = adapted.properties;
    if (!isRecord(properties)) return adapted;
    let copy: Json | undefined;
    for (const key of Object.keys(properties)) {
      const field = properties[key];
      const converted = this.#elicitationField(field);
      if (converted === NOT_IN_REVISION) return converted;
      if (converted === field) continue;
      copy ??= { ...properties };
      copy[key] = converted;
    }
    return copy ? patch(adapted, 'properties', copy) : adapted;
  }

  #elicitationField(field: unknown): unknown {
    if (!isRecord(field) || field.type === 'boolean') return field;
    // Multi-select has no 2025-06-18 form: the answer would be an array the peer cannot send.
    if (field.type === 'array') return NOT_IN_REVISION;
    if (field.oneOf !== undefined) return titledEnumAsLegacy(field);
    return without(field, ['default']);
  }

  #elicitResult(result: Json): Json {
    if (this.#has.elicitationEnums) return result;
    // An older server never asked a multi-select question, so an array answers nothing it asked.
    return patchObject(result, 'content', (content) => {
      const arrays = Object.keys(content).filter((key) => Array.isArray(content[key]));
      return without(content, arrays);
    });
  }
}

function carriesJson(content: unknown, value: unknown): boolean {
  if (!Array.isArray(content)) return false;
  return content.some((block) => {
    if (!isRecord(block) || block.type !== 'text' || typeof block.text !== 'string') return false;
    const text = block.text.trimStart();
    if (!text.startsWith('{') && !text.startsWith('[')) return false;
    try {
      return jsonEqual(JSON.parse(text), value);
    } catch {
      return false;
    }
  });
}

/** `oneOf: [{const, title}]` (2025-11-25) as `enum` + `enumNames` (2025-06-18). */
function titledEnumAsLegacy(field: Json): Json | typeof NOT_IN_REVISION {
  const options = field.oneOf;
  if (!Array.isArray(options)) return NOT_IN_REVISION;
  const values: string[] = [];
  const names: string[] = [];
  for (const option of options) {
    if (!isRecord(option) || typeof option.const !== 'string') return NOT_IN_REVISION;
    values.push(option.const);
    names.push(typeof option.title === 'string' ? option.title : option.const);
  }
  const legacy: Json = { type: 'string' };
  if (field.title !== undefined) legacy.title = field.title;
  if (field.description !== undefined) legacy.description = field.description;
  legacy.enum = values;
  legacy.enumNames = names;
  return legacy;
}
