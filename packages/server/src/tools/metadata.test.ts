import { describe, expect, it } from 'vitest';
import { checkAnnotations, checkIconsAndMeta, checkToolAnnotations, cloneJson } from './metadata.js';

describe('registration metadata checks', () => {
  it('accepts well-formed resource annotations and names each kind of mistake', () => {
    checkAnnotations('R', { audience: ['user'], priority: 0, lastModified: '2025-01-12T15:00:58Z' });
    checkAnnotations('R', { priority: 1, lastModified: '2025-01-12' });
    checkAnnotations('R', { lastModified: '2025-01-12T15:00:58.123+02:00' });
    expect(() => checkAnnotations('R', { audience: 'user' })).toThrow('R: annotations.audience');
    expect(() => checkAnnotations('R', { priority: -0.1 })).toThrow(/priority/);
    expect(() => checkAnnotations('R', { priority: Number.NaN })).toThrow(/priority/);
    expect(() => checkAnnotations('R', { lastModified: '2025-13-45' })).toThrow(/lastModified/);
    expect(() => checkAnnotations('R', { lastModified: '12/01/2025' })).toThrow(/lastModified/);
    expect(() => checkAnnotations('R', [])).toThrow(/must be an object/);
  });

  it('checks tool hints are booleans', () => {
    checkToolAnnotations('T', { title: 'x', readOnlyHint: false, destructiveHint: true });
    expect(() => checkToolAnnotations('T', { idempotentHint: 1 })).toThrow(
      'T: annotations.idempotentHint must be a boolean',
    );
    expect(() => checkToolAnnotations('T', { title: 1 })).toThrow(/annotations.title/);
  });

  it('refuses icons other than https and data URIs, and _meta keys MCP reserves', () => {
    checkIconsAndMeta('T', { icons: [{ src: 'https://example.com/a.png' }], _meta: { 'com.example/a': 1 } });
    expect(() => checkIconsAndMeta('T', { icons: [{ src: 'file:///etc/passwd' }] })).toThrow(
      /^T: icons\[0\]/,
    );
    expect(() => checkIconsAndMeta('T', { _meta: { 'dev.mcp/x': 1 } })).toThrow(/reserved/);
  });

  it('copies JSON deeply', () => {
    const original = { a: [{ b: 1 }] };
    const copy = cloneJson(original);
    original.a[0]!.b = 2;
    expect(copy).toEqual({ a: [{ b: 1 }] });
  });
});
