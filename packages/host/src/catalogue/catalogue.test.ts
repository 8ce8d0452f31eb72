import { expect, it } from 'vitest';
import { NameCollisionError } from '../errors.js';
import { Catalogue } from './catalogue.js';
import { type Naming, namespacedName, namespacedUri, splitNamespacedUri } from './names.js';

const naming: Naming = { mode: 'onCollision', separator: '__', prefixes: {} };
const VALID = /^[A-Za-z0-9_-]{1,64}$/;

it('namespaces colliding tools and prompts, rewrites colliding URIs, and routes each back', () => {
  const catalogue = new Catalogue(naming);
  const tools = catalogue.build('tools', [
    ['b', [{ name: 'echo' }, { name: 'search' }]],
    ['a', [{ name: 'echo', title: 'Echo', annotations: { readOnlyHint: true } }, { name: 'only_a' }]],
  ]);
  expect(tools.map((tool) => tool.name)).toEqual(['a__echo', 'only_a', 'b__echo', 'search']);
  expect(tools[0]).toEqual({
    name: 'a__echo',
    title: 'Echo',
    annotations: { readOnlyHint: true },
    server: 'a',
    original: 'echo',
  });
  expect(catalogue.route('tools', 'b__echo')).toEqual({ server: 'b', original: 'echo' });
  expect(catalogue.route('tools', 'echo')).toBeUndefined();
  const resources = catalogue.build('resources', [
    ['a', [{ uri: 'file:///a', name: 'a' }]],
    [
      'b',
      [
        { uri: 'file:///a', name: 'a' },
        { uri: 'file:///b', name: 'b' },
      ],
    ],
  ]);
  expect(resources.map((resource) => resource.uri)).toEqual([
    'mcp-host://a/file:///a',
    'mcp-host://b/file:///a',
    'file:///b',
  ]);
  expect(catalogue.routeUri('mcp-host://b/file:///a')).toEqual({
    server: 'b',
    original: 'file:///a',
  });
  expect(catalogue.routeUri('file:///b')).toEqual({ server: 'b', original: 'file:///b' });
});

it('gives the same names whatever the order of the servers', () => {
  const lists = [
    ['x', [{ name: 'echo' }]],
    ['y', [{ name: 'echo' }, { name: 'z' }]],
  ] as const;
  const names = (order: typeof lists extends readonly (infer T)[] ? T[] : never) =>
    new Catalogue(naming)
      .build('tools', order)
      .map((tool) => tool.name)
      .sort();
  expect(names([...lists])).toEqual(names([...lists].reverse()));
});

it('routes reads of unlisted URIs by the longest template prefix, and refuses ambiguity', () => {
  const catalogue = new Catalogue(naming);
  catalogue.build('resourceTemplates', [
    ['a', [{ uriTemplate: 'demo://items/{id}', name: 'item' }]],
    ['b', [{ uriTemplate: 'demo://{path}', name: 'any' }]],
    ['c', [{ uriTemplate: 'demo://{other}', name: 'other' }]],
  ]);
  expect(catalogue.routeUri('demo://items/7')).toEqual({ server: 'a', original: 'demo://items/7' });
  expect(catalogue.routeUri('demo://elsewhere')).toBeUndefined();
});

it('with namespacing off, a collision names both servers; with always, every name is prefixed', () => {
  const strict = new Catalogue({ ...naming, mode: 'off' });
  expect(() =>
    strict.build('prompts', [
      ['a', [{ name: 'p' }]],
      ['b', [{ name: 'p' }]],
    ]),
  ).toThrow(new NameCollisionError('prompt', 'p', ['a', 'b']));
  const always = new Catalogue({ mode: 'always', separator: '-', prefixes: { a: 'alpha' } });
  expect(always.build('tools', [['a', [{ name: 't' }]]]).map((tool) => tool.name)).toEqual(['alpha-t']);
});

it('keeps names valid: long names get a stable hash, separators in server keys are escaped', () => {
  const long = 'x'.repeat(70);
  const name = namespacedName(naming, 'server', long);
  expect(name).toMatch(VALID);
  expect(name).toHaveLength(64);
  expect(namespacedName(naming, 'server', long)).toBe(name);
  expect(namespacedName(naming, 'server', `${long}y`)).not.toBe(name);
  const catalogue = new Catalogue(naming);
  catalogue.build('tools', [
    ['server', [{ name: long }]],
    ['other', [{ name: long }]],
  ]);
  expect(catalogue.route('tools', name)).toEqual({ server: 'server', original: long });
  expect(namespacedName(naming, 'my__server', 'echo')).toBe('my_server__echo');
  expect(namespacedName(naming, 'my server', 'a.b')).toMatch(VALID);
  expect(splitNamespacedUri(namespacedUri('a/b c', 'x://y?z'))).toEqual({ server: 'a/b c', uri: 'x://y?z' });
});

it('renames items that still collide after namespacing, deterministically, and reports it', () => {
  const reported: unknown[] = [];
  const shared = new Catalogue({ ...naming, mode: 'always', prefixes: { a: 'same', b: 'same' } }, (c) =>
    reported.push(c),
  );
  const build = (order: Array<readonly [string, Array<{ name: string }>]>) =>
    shared
      .build('tools', order)
      .map((tool) => `${tool.server}:${tool.name}`)
      .sort();
  const first = build([
    ['a', [{ name: 'echo' }]],
    ['b', [{ name: 'echo' }]],
  ]);
  expect(first).toHaveLength(2);
  expect(first[0]).toMatch(/^a:same__echo_[0-9a-f]{8}$/);
  expect(first[1]).toMatch(/^b:same__echo_[0-9a-f]{8}$/);
  expect(
    build([
      ['b', [{ name: 'echo' }]],
      ['a', [{ name: 'echo' }]],
    ]),
  ).toEqual(first);
  expect(reported[0]).toEqual({ kind: 'tools', name: 'same__echo', servers: ['a', 'b'] });
});

it('namespaces a view URI two servers share as a ui:// URI, reversibly', () => {
  const catalogue = new Catalogue({ mode: 'onCollision', separator: '__', prefixes: {} });
  const view = { uri: 'ui://app/view', name: 'view' };
  const listed = catalogue.build('resources', [
    ['a', [view]],
    ['b c', [view]],
  ]);
  expect(listed.map((entry) => entry.uri)).toEqual([
    'ui://mcp-host/a/app/view',
    'ui://mcp-host/b%20c/app/view',
  ]);
  expect(splitNamespacedUri(namespacedUri('b c', 'ui://app/view'))).toEqual({
    server: 'b c',
    uri: 'ui://app/view',
  });
  expect(catalogue.routeUri('ui://mcp-host/b%20c/app/view')).toEqual({
    server: 'b c',
    original: 'ui://app/view',
  });
  expect(splitNamespacedUri('ui://mcp-host/noslash')).toBeUndefined();
});
