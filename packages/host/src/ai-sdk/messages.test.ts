import type { SamplingMessage } from '@mcpkit/core';
import { describe, expect, it } from 'vitest';
import { fromGenerateText, toModelMessages } from './messages.js';
import { aiSdkModelOutput } from './output.js';

describe('sampling messages in the AI SDK’s shapes', () => {
  it('maps text, images and audio, and a tool round trip (tool_use, then tool_result as a tool message)', () => {
    const messages: SamplingMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture, and the weather?' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'u1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'u1', content: [{ type: 'text', text: 'Sunny' }] },
          { type: 'text', text: 'And tomorrow?' },
        ],
      },
      {
        role: 'user',
        content: {
          type: 'tool_result',
          toolUseId: 'u1',
          content: [{ type: 'text', text: 'Gone' }],
          isError: true,
        },
      },
    ];
    expect(toModelMessages(messages)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture, and the weather?' },
          { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
          { type: 'file', data: 'UklGRg==', mediaType: 'audio/wav' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', toolCallId: 'u1', toolName: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'u1',
            toolName: 'get_weather',
            output: { type: 'content', value: [{ type: 'text', text: 'Sunny' }] },
          },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'u1',
            toolName: 'get_weather',
            output: { type: 'error-text', value: 'Gone' },
          },
        ],
      },
    ]);
  });

  it('maps the reply back: text and tool calls, stop reasons, and the model that answered', () => {
    expect(
      fromGenerateText(
        {
          text: 'Let me look.',
          toolCalls: [{ toolCallId: 'c1', toolName: 'search', input: { q: 'tides' } }],
          finishReason: 'tool-calls',
          response: { modelId: 'provider-model-7' },
        },
        'host-name',
      ),
    ).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'c1', name: 'search', input: { q: 'tides' } },
      ],
      model: 'provider-model-7',
      stopReason: 'toolUse',
    });
    expect(fromGenerateText({ text: 'Cut', toolCalls: [], finishReason: 'length' }, 'host-name')).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'Cut' },
      model: 'host-name',
      stopReason: 'maxTokens',
    });
    expect(
      fromGenerateText({ text: '', toolCalls: [], finishReason: 'content-filter' }, 'm').stopReason,
    ).toBe('content-filter');
  });
});

describe('tool results as the model reads them', () => {
  it('text and media as content, structured output alone as JSON, an error as a tool error', () => {
    expect(
      aiSdkModelOutput({
        content: [
          { type: 'text', text: 'A cat' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///cat.png', name: 'cat.png' },
          { type: 'resource', resource: { uri: 'memo://1', text: 'Remember milk' } },
          { type: 'resource', resource: { uri: 'memo://2', blob: 'AAEC' } },
        ],
      }),
    ).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'A cat' },
        { type: 'file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' },
        { type: 'text', text: 'Resource cat.png: file:///cat.png' },
        { type: 'text', text: 'Remember milk' },
        { type: 'file', data: { type: 'data', data: 'AAEC' }, mediaType: 'application/octet-stream' },
      ],
    });
    expect(aiSdkModelOutput({ content: [], structuredContent: { total: 3 } })).toEqual({
      type: 'json',
      value: { total: 3 },
    });
    expect(
      aiSdkModelOutput({
        content: [
          { type: 'text', text: 'No such file' },
          { type: 'image', data: 'x', mimeType: 'image/png' },
        ],
        isError: true,
      }),
    ).toEqual({ type: 'error-text', value: 'No such file\n[image/png]' });
  });
});
