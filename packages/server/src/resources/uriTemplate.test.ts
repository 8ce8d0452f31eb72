import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from '../../../../tests/support/fastCheck.js';
import {
  UriTemplate,
  UriTemplateError,
  type UriTemplateMatch,
  type UriTemplateVariables,
} from './uriTemplate.js';

/** The variables of RFC 6570 sections 1.2 and 3.2. */
const RFC_VARIABLES: UriTemplateVariables = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: { semi: ';', dot: '.', comma: ',' },
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: {},
  undef: undefined,
};

/** [level, template, expansion] from RFC 6570 sections 1.2 and 3.2. */
const RFC_EXPANSIONS: ReadonlyArray<readonly [number, string, string]> = [
  [1, '{var}', 'value'],
  [1, '{hello}', 'Hello%20World%21'],
  [1, '{half}', '50%25'],
  [1, 'O{empty}X', 'OX'],
  [1, 'O{undef}X', 'OX'],
  [2, '{+var}', 'value'],
  [2, '{+hello}', 'Hello%20World!'],
  [2, '{+half}', '50%25'],
  [2, '{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  [2, '{+base}index', 'http://example.com/home/index'],
  [2, 'O{+empty}X', 'OX'],
  [2, 'O{+undef}X', 'OX'],
  [2, '{+path}/here', '/foo/bar/here'],
  [2, 'here?ref={+path}', 'here?ref=/foo/bar'],
  [2, 'up{+path}{var}/here', 'up/foo/barvalue/here'],
  [2, 'X{#var}', 'X#value'],
  [2, 'X{#hello}', 'X#Hello%20World!'],
  [2, '{#half}', '#50%25'],
  [2, 'foo{#empty}', 'foo#'],
  [2, 'foo{#undef}', 'foo'],
  [3, 'map?{x,y}', 'map?1024,768'],
  [3, '{x,hello,y}', '1024,Hello%20World%21,768'],
  [3, '?{x,empty}', '?1024,'],
  [3, '?{x,undef}', '?1024'],
  [3, '?{undef,y}', '?768'],
  [3, '{+x,hello,y}', '1024,Hello%20World!,768'],
  [3, '{+path,x}/here', '/foo/bar,1024/here'],
  [3, '{#x,hello,y}', '#1024,Hello%20World!,768'],
  [3, '{#path,x}/here', '#/foo/bar,1024/here'],
  [3, '{.who}', '.fred'],
  [3, '{.who,who}', '.fred.fred'],
  [3, '{.half,who}', '.50%25.fred'],
  [3, 'X{.var}', 'X.value'],
  [3, 'X{.x,y}', 'X.1024.768'],
  [3, 'X{.empty}', 'X.'],
  [3, 'X{.undef}', 'X'],
  [3, '{/who}', '/fred'],
  [3, '{/who,who}', '/fred/fred'],
  [3, '{/half,who}', '/50%25/fred'],
  [3, '{/who,dub}', '/fred/me%2Ftoo'],
  [3, '{/var}', '/value'],
  [3, '{/var,empty}', '/value/'],
  [3, '{/var,undef}', '/value'],
  [3, '{/var,x}/here', '/value/1024/here'],
  [3, '{;who}', ';who=fred'],
  [3, '{;half}', ';half=50%25'],
  [3, '{;empty}', ';empty'],
  [3, '{;v,empty,who}', ';v=6;empty;who=fred'],
  [3, '{;v,bar,who}', ';v=6;who=fred'],
  [3, '{;x,y}', ';x=1024;y=768'],
  [3, '{;x,y,empty}', ';x=1024;y=768;empty'],
  [3, '{;x,y,undef}', ';x=1024;y=768'],
  [3, '{?who}', '?who=fred'],
  [3, '{?half}', '?half=50%25'],
  [3, '{?x,y}', '?x=1024&y=768'],
  [3, '{?x,y,empty}', '?x=1024&y=768&empty='],
  [3, '{?x,y,undef}', '?x=1024&y=768'],
  [3, '{&who}', '&who=fred'],
  [3, '{&half}', '&half=50%25'],
  [3, '?fixed=yes{&x}', '?fixed=yes&x=1024'],
  [3, '{&x,y,empty}', '&x=1024&y=768&empty='],
  [4, '{var:3}', 'val'],
  [4, '{var:30}', 'value'],
  [4, '{count}', 'one,two,three'],
  [4, '{count*}', 'one,two,three'],
  [4, '{/count}', '/one,two,three'],
  [4, '{/count*}', '/one/two/three'],
  [4, '{;count}', ';count=one,two,three'],
  [4, '{;count*}', ';count=one;count=two;count=three'],
  [4, '{?count}', '?count=one,two,three'],
  [4, '{?count*}', '?count=one&count=two&count=three'],
  [4, '{&count*}', '&count=one&count=two&count=three'],
  [4, '{list}', 'red,green,blue'],
  [4, '{list*}', 'red,green,blue'],
  [4, '{keys}', 'semi,%3B,dot,.,comma,%2C'],
  [4, '{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  [4, '{+path:6}/here', '/foo/b/here'],
  [4, '{+list}', 'red,green,blue'],
  [4, '{+list*}', 'red,green,blue'],
  [4, '{+keys}', 'semi,;,dot,.,comma,,'],
  [4, '{+keys*}', 'semi=;,dot=.,comma=,'],
  [4, '{#path:6}/here', '#/foo/b/here'],
  [4, '{#list}', '#red,green,blue'],
  [4, '{#list*}', '#red,green,blue'],
  [4, '{#keys}', '#semi,;,dot,.,comma,,'],
  [4, '{#keys*}', '#semi=;,dot=.,comma=,'],
  [4, 'www{.dom*}', 'www.example.com'],
  [4, 'X{.var:3}', 'X.val'],
  [4, 'X{.list}', 'X.red,green,blue'],
  [4, 'X{.list*}', 'X.red.green.blue'],
  [4, 'X{.keys}', 'X.semi,%3B,dot,.,comma,%2C'],
  [4, 'X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  [4, 'X{.empty_keys}', 'X'],
  [4, 'X{.empty_keys*}', 'X'],
  [4, '{/var:1,var}', '/v/value'],
  [4, '{/list}', '/red,green,blue'],
  [4, '{/list*}', '/red/green/blue'],
  [4, '{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  [4, '{/keys}', '/semi,%3B,dot,.,comma,%2C'],
  [4, '{/keys*}', '/semi=%3B/dot=./comma=%2C'],
  [4, '{;hello:5}', ';hello=Hello'],
  [4, '{;list}', ';list=red,green,blue'],
  [4, '{;list*}', ';list=red;list=green;list=blue'],
  [4, '{;keys}', ';keys=semi,%3B,dot,.,comma,%2C'],
  [4, '{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  [4, '{?var:3}', '?var=val'],
  [4, '{?list}', '?list=red,green,blue'],
  [4, '{?list*}', '?list=red&list=green&list=blue'],
  [4, '{?keys}', '?keys=semi,%3B,dot,.,comma,%2C'],
  [4, '{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  [4, '{&var:3}', '&var=val'],
  [4, '{&list}', '&list=red,green,blue'],
  [4, '{&list*}', '&list=red&list=green&list=blue'],
  [4, '{&keys}', '&keys=semi,%3B,dot,.,comma,%2C'],
  [4, '{&keys*}', '&semi=%3B&dot=.&comma=%2C'],
];

describe('UriTemplate.expand', () => {
  it.each(RFC_EXPANSIONS)('RFC 6570 level %i: %s → %s', (_level, template, expected) => {
    expect(new UriTemplate(template).expand(RFC_VARIABLES)).toBe(expected);
  });

  it('treats empty lists as undefined (RFC 6570 section 2.3)', () => {
    expect(new UriTemplate('items{?list}').expand({ list: [] })).toBe('items');
    expect(new UriTemplate('items{/list*}').expand({ list: [] })).toBe('items');
  });

  it('expands the MCP examples', () => {
    expect(new UriTemplate('test://template/{id}/data').expand({ id: 'a/b c' })).toBe(
      'test://template/a%2Fb%20c/data',
    );
    expect(new UriTemplate('file:///{+path}').expand({ path: 'home/me/a b.txt' })).toBe(
      'file:///home/me/a%20b.txt',
    );
    expect(new UriTemplate('search{?q,lang}').expand({ q: 'mcp & you' })).toBe('search?q=mcp%20%26%20you');
    expect(new UriTemplate('users/{id}/posts{/postId}').expand({ id: '1', postId: '2' })).toBe(
      'users/1/posts/2',
    );
  });

  it('refuses a value with a lone surrogate with a clear error', () => {
    expect(() => new UriTemplate('{x}').expand({ x: 'a\uD800b' })).toThrow(UriTemplateError);
    expect(() => new UriTemplate('{x}').expand({ x: 'a\uD800b' })).toThrow(/lone UTF-16 surrogate/);
  });
});

describe('new UriTemplate', () => {
  it.each([
    ['{', /unclosed "\{"/],
    ['a{b', /position 1: unclosed/],
    ['}', /unmatched "\}"/],
    ['a}b{c}', /position 1: unmatched/],
    ['{c}}', /position 3: unmatched/],
    ['{}', /empty expression/],
    ['{a{b}}', /"\{" inside an expression/],
    ['{=x}', /operator "=" is reserved/],
    ['{,x}', /operator "," is reserved/],
    ['{!x}', /operator "!" is reserved/],
    ['{@x}', /operator "@" is reserved/],
    ['{|x}', /operator "\|" is reserved/],
    ['{x,}', /empty variable name/],
    ['{/}', /empty variable name/],
    ['{*}', /empty variable name/],
    ['{x y}', /invalid variable name/],
    ['{ x}', /invalid variable name/],
    ['{a..b}', /invalid variable name/],
    ['{a.}', /invalid variable name/],
    ['{%zz}', /invalid variable name/],
    ['{x*:3}', /invalid variable name/],
    ['{x:3*}', /invalid variable name/],
    ['{x:}', /prefix length/],
    ['{x:0}', /prefix length/],
    ['{x:010}', /prefix length/],
    ['{x:10000}', /prefix length/],
    ['{x:1a}', /prefix length/],
  ])('refuses %s', (template, message) => {
    expect(() => new UriTemplate(template)).toThrow(UriTemplateError);
    expect(() => new UriTemplate(template)).toThrow(message);
  });

  it('accepts every RFC 6570 variable name form and lists names once, in order', () => {
    const template = new UriTemplate('{a.b}{/%41b,x:9999}{?x*,_1}');
    expect(template.template).toBe('{a.b}{/%41b,x:9999}{?x*,_1}');
    expect(template.variableNames).toEqual(['a.b', '%41b', 'x', '_1']);
    expect(String(template)).toBe(template.template);
  });

  it('refuses templates over the length limit', () => {
    const long = `x://${'a'.repeat(UriTemplate.DEFAULT_MAX_TEMPLATE_LENGTH)}{id}`;
    expect(() => new UriTemplate(long)).toThrow(/longer than 4096/);
    expect(new UriTemplate(long, { maxTemplateLength: long.length }).variableNames).toEqual(['id']);
    expect(() => new UriTemplate('{ab}', { maxTemplateLength: 3 })).toThrow(UriTemplateError);
  });

  it('refuses nonsensical limits', () => {
    expect(() => new UriTemplate('{x}', { maxUriLength: 0 })).toThrow(RangeError);
    expect(() => new UriTemplate('{x}', { maxTemplateLength: 1.5 })).toThrow(RangeError);
  });
});

describe('UriTemplate.isTemplate', () => {
  it.each([
    ['test://template/{id}/data', true],
    ['search{?q,lang}', true],
    ['{x}', true],
    ['test://static/resource', false],
    ['', false],
    ['{}', false],
    ['{ }', false],
    ['a}b{', false],
    ['{a b}', false],
    ['{{x}', true],
  ])('%s → %s', (input, expected) => {
    expect(UriTemplate.isTemplate(input)).toBe(expected);
  });
});

describe('UriTemplate.match', () => {
  it.each<[string, string, UriTemplateMatch]>([
    ['test://template/{id}/data', 'test://template/42/data', { id: '42' }],
    ['test://template/{id}/data', 'test://template/a%2Fb%20c/data', { id: 'a/b c' }],
    ['test://template/{id}/data', 'test://template//data', { id: '' }],
    ['test://template/{id}/data', 'test://template/caf\u00e9/data', { id: 'caf\u00e9' }],
    ['file:///{+path}', 'file:///home/me/a%20b.txt', { path: 'home/me/a b.txt' }],
    ['file:///{+path}.txt', 'file:///a.txt.bak.txt', { path: 'a.txt.bak' }],
    ['search{?q,lang}', 'search?q=mcp&lang=en', { q: 'mcp', lang: 'en' }],
    ['search{?q,lang}', 'search?lang=en&q=a%20b', { lang: 'en', q: 'a b' }],
    ['search{?q,lang}', 'search', {}],
    ['search{?q,lang}', 'search?q=', { q: '' }],
    ['users/{id}/posts{/postId}', 'users/7/posts', { id: '7' }],
    ['users/{id}/posts{/postId}', 'users/7/posts/9', { id: '7', postId: '9' }],
    ['{/list*}', '/red/green/blue', { list: ['red', 'green', 'blue'] }],
    ['{/list*}', '/', { list: [''] }],
    ['{?list*}', '?list=red&list=green', { list: ['red', 'green'] }],
    ['{&keys*}', '&keys=a&keys=b%26c', { keys: ['a', 'b&c'] }],
    ['{;list*}', ';list=red;list=green', { list: ['red', 'green'] }],
    ['X{.list*}', 'X.red.green.blue', { list: ['red', 'green', 'blue'] }],
    ['{/list}', '/red,green,blue', { list: ['red', 'green', 'blue'] }],
    ['{?list}', '?list=red,green', { list: ['red', 'green'] }],
    ['{+list}', 'red,green', { list: 'red,green' }],
    ['{hello}', 'Hello%20World%21', { hello: 'Hello World!' }],
    ['{x,hello,y}', '1024,Hello%20World%21,768', { x: '1024', hello: 'Hello World!', y: '768' }],
    ['?{x,empty}', '?1024,', { x: '1024', empty: '' }],
    ['{+path}/here', '/foo/bar/here', { path: '/foo/bar' }],
    ['here?ref={+path}', 'here?ref=/foo/bar', { path: '/foo/bar' }],
    ['{#path,x}/here', '#/foo/bar,1024/here', { path: '/foo/bar', x: '1024' }],
    ['{.who,who}', '.fred.fred', { who: 'fred' }],
    ['x{.ext}', 'x.tar.gz', { ext: 'tar.gz' }],
    ['{/var:1,var}', '/v/value', { var: 'value' }],
    ['{/var,var:1}', '/value/v', { var: 'value' }],
    ['{;v,empty,who}', ';v=6;empty;who=fred', { v: '6', empty: '', who: 'fred' }],
    ['{?x,y,empty}', '?x=1024&y=768&empty=', { x: '1024', y: '768', empty: '' }],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024', { x: '1024' }],
    ['api{?q}{&page,size}', 'api?q=a&page=2&size=10', { q: 'a', page: '2', size: '10' }],
    ['{/a}/x/{b}', '/x/b', { b: 'b' }],
    ['{x}/{x}', 'a/a', { x: 'a' }],
  ])('%s matches %s', (template, uri, expected) => {
    expect(new UriTemplate(template).match(uri)).toEqual(expected);
  });

  it.each([
    ['test://template/{id}/data', 'test://template/a/b/data'],
    ['test://template/{id}/data', 'test://other/1/data'],
    ['test://template/{id}/data', 'test://template/1/dat'],
    ['test://template/{id}/data', 'test://template/1/data/'],
    ['test://template/{id}/data', 'test://template/%zz/data'],
    ['test://template/{id}/data', 'test://template/%4/data'],
    ['test://template/{id}/data', 'test://template/%/data'],
    ['test://template/{id}/data', 'test://template/%E0%A4/data'],
    ['test://template/{id}/data', 'test://template'],
    ['file:///{+path}', 'file://etc/hosts'],
    ['file:///{+path}', 'file:///%E0%A4'],
    ['search{?q,lang}', 'search?q=1&utm=2'],
    ['search{?q,lang}', 'search&q=1'],
    ['search{?q,lang}', 'searchq=1'],
    ['search{?q,lang}', 'search?q=1?x=2'],
    ['search{?q,lang}', 'search?'],
    ['search{?q,lang}', 'search?q=1&'],
    ['search{?q,lang}', 'search?%zz=1'],
    ['{?q}', 'q=1'],
    ['{/a}', '/x/y'],
    ['{/a,b}', '/x/y/z'],
    ['{/v:3}', '/abcd'],
    ['{x}/{x}', 'a/b'],
    ['{/x:1}{/x}', '/a/bcd'],
    ['{x}/{/x*}', 'a//b'],
    ['users/{id}/posts{/postId}', 'users/1/posts/2/3'],
    ['users/{id}/posts{/postId}', 'users/1/posts2'],
    ['{/list*}', '/a/b!'],
    ['{;x}', ';'],
  ])('%s does not match %s', (template, uri) => {
    expect(new UriTemplate(template).match(uri)).toBeUndefined();
  });

  it('resolves ambiguous adjacent expressions deterministically, without backtracking', () => {
    // The first of two adjacent same-operator expressions stops at the second's operator character.
    expect(new UriTemplate('{/a*}{/b*}').match('/x/y/z')).toEqual({ a: ['x'], b: ['y', 'z'] });
    // A reserved expression followed by one without an operator character takes everything.
    expect(new UriTemplate('up{+path}{var}/here').match('up/foo/barvalue/here')).toEqual({
      path: '/foo/barvalue',
      var: '',
    });
    // An exploded variable takes every remaining item of its expression.
    expect(new UriTemplate('{/list*,path:4}').match('/red/green/%2Ffoo')).toEqual({
      list: ['red', 'green', '/foo'],
    });
  });

  it('accepts a repeated variable written once as a string and once as a one-item list', () => {
    expect(new UriTemplate('{x}{/x*}').match('a/a')).toEqual({ x: ['a'] });
  });

  it('keeps a variable named __proto__ as an own property', () => {
    const template = new UriTemplate('{__proto__}');
    const uri = template.expand(JSON.parse('{"__proto__":"x y"}'));
    const result = template.match(uri)!;
    expect(uri).toBe('x%20y');
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toBe('x y');
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it('returns undefined for URIs over the length limit', () => {
    const template = new UriTemplate('test://{+rest}');
    const atLimit = `test://${'a'.repeat(UriTemplate.DEFAULT_MAX_URI_LENGTH - 7)}`;
    expect(template.match(atLimit)).toEqual({ rest: 'a'.repeat(UriTemplate.DEFAULT_MAX_URI_LENGTH - 7) });
    expect(template.match(`${atLimit}a`)).toBeUndefined();
    expect(new UriTemplate('test://{+rest}', { maxUriLength: 10 }).match('test://abcd')).toBeUndefined();
    expect(new UriTemplate('test://{+rest}', { maxUriLength: 10 }).match('test://abc')).toEqual({
      rest: 'abc',
    });
  });

  it('never matches a non-string', () => {
    expect(new UriTemplate('{x}').match(42 as unknown as string)).toBeUndefined();
  });
});

/** Strings of any code point, of URI-significant characters, or of multi-code-point graphemes. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom(...":/?#[]@!$&'()*+,;=%.-_~ é😀"), maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);
const without = (chars: string) => anyString.filter((s) => ![...chars].some((c) => s.includes(c)));
const list = (item: fc.Arbitrary<string>, minLength = 1) => fc.array(item, { minLength, maxLength: 5 });
const optional = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });

/** Templates whose expansion can be matched back, with values that expansion keeps distinguishable. */
const ROUND_TRIPS: ReadonlyArray<readonly [string, fc.Arbitrary<UriTemplateVariables>]> = [
  ['test://template/{id}/data', fc.record({ id: anyString })],
  // Reserved expansion passes existing %XX triplets through, so a value's own '%' cannot survive.
  ['file:///{+path}', fc.record({ path: without('%') })],
  ['file:///{+path}.txt', fc.record({ path: without('%') })],
  ['page{#frag}', fc.record({ frag: without('%') })],
  ['{#a,b}', fc.record({ a: without('%,'), b: optional(without('%')) })],
  ['search{?q,lang}', fc.record({ q: optional(anyString), lang: optional(anyString) })],
  ['users/{id}/posts{/postId}', fc.record({ id: anyString, postId: optional(anyString) })],
  ['items{/list*}', fc.record({ list: list(anyString) })],
  ['items{?list*}', fc.record({ list: list(anyString) })],
  ['{&keys*}', fc.record({ keys: optional(list(anyString)) })],
  ['{;list*}', fc.record({ list: optional(list(anyString)) })],
  ['api{?q}{&keys*}', fc.record({ q: optional(anyString), keys: optional(list(anyString)) })],
  ['{/a*}{?b*}', fc.record({ a: optional(list(anyString)), b: optional(list(anyString)) })],
  ['x{.ext}', fc.record({ ext: anyString })],
  ['{.a,b}', fc.record({ a: without('.'), b: optional(anyString) })],
  ['{/a,b}', fc.record({ a: anyString, b: optional(anyString) })],
  ['{;a,b}', fc.record({ a: optional(anyString), b: optional(anyString) })],
  ['{x,y}', fc.record({ x: anyString, y: optional(anyString) })],
  [
    'repo://{owner}/{repo}{/path*}{?ref}',
    fc.record({
      owner: anyString,
      repo: anyString,
      path: optional(list(anyString)),
      ref: optional(anyString),
    }),
  ],
  ['{+base}{?q}', fc.record({ base: without('%?'), q: optional(anyString) })],
  // A non-exploded list of two or more members comes back as a list outside reserved expansion.
  ['{/list}', fc.record({ list: list(anyString, 2) })],
  ['{?list}', fc.record({ list: list(anyString, 2) })],
  ['X{.list}', fc.record({ list: list(anyString, 2) })],
];

function definedOnly(variables: UriTemplateVariables): UriTemplateMatch {
  return Object.fromEntries(
    Object.entries(variables).filter(([, value]) => value !== undefined),
  ) as UriTemplateMatch;
}

describe('UriTemplate round trip: match(expand(vars))', () => {
  it.each(ROUND_TRIPS)('%s', (source, variables) => {
    const template = new UriTemplate(source);
    assertProperty(
      fc.property(variables, (vars) => {
        expect(template.match(template.expand(vars))).toEqual(definedOnly(vars));
      }),
      { numRuns: 300 },
    );
  });

  it('returns the truncated value for a prefix modifier', () => {
    const template = new UriTemplate('{/v:3}');
    assertProperty(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), (v) => {
        expect(template.match(template.expand({ v }))).toEqual({ v: v.slice(0, 3) });
      }),
    );
  });
});

describe('regression: CVE-2026-0621 exploded-array template matching stays linear', () => {
  // A backtracking matcher needs exponential (or at best quadratic) time on these; the linear scan
  // finishes each in milliseconds, and the test timeout is the backstop that would catch a regression.
  const maxUriLength = 128 * 1024;
  const items = 50_000; // about 100 KB of URI, under the limit set below
  const xs = (n: number) => Array.from({ length: n }, () => 'x');
  const match = (template: string, uri: string) => {
    expect(uri.length).toBeGreaterThan(90_000);
    expect(uri.length).toBeLessThanOrEqual(maxUriLength);
    return new UriTemplate(template, { maxUriLength }).match(uri);
  };

  it('{/a*}{/b*}{/c*} on a long path', () => {
    expect(match('{/a*}{/b*}{/c*}', '/x'.repeat(items))).toEqual({ a: ['x'], b: ['x'], c: xs(items - 2) });
    expect(match('{/a*}{/b*}{/c*}', `${'/x'.repeat(items)}!`)).toBeUndefined();
    expect(match('{/a*}{/b*}{/c*}', `${'/'.repeat(2 * items)}`)).toEqual({
      a: [''],
      b: [''],
      c: Array.from({ length: 2 * items - 2 }, () => ''),
    });
  });

  it('{?q*} on a long query', () => {
    expect(match('{?q*}', `?${'q=x&'.repeat(items / 2)}q=x`)).toEqual({ q: xs(items / 2 + 1) });
    expect(match('{?q*}', `?${'q=x&'.repeat(items / 2)}q=x!`)).toBeUndefined();
    expect(match('{?q*}', `?${'q=x&'.repeat(items / 2)}r=x`)).toBeUndefined();
  });

  it('{&keys*} and simple exploded lists ending in a mismatch', () => {
    expect(match('{&keys*}', `&${'keys=,&'.repeat(items / 3)}keys=%zz`)).toBeUndefined();
    expect(match('{a*}@', `${'a,'.repeat(items)}/`)).toBeUndefined();
    expect(match('{a*}@', `${'a,'.repeat(items)}@`)).toEqual({
      a: [...Array.from({ length: items }, () => 'a'), ''],
    });
  });

  it('literal anchoring on near-miss repetitions', () => {
    expect(match('{+a}xxxxxxxxy{+b}', 'x'.repeat(2 * items))).toBeUndefined();
    expect(match('{id}/data', `${'a'.repeat(2 * items)}/dat`)).toBeUndefined();
  });
});
