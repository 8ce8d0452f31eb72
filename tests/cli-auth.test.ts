// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config entries written in their own variable syntax
/**
 * The CLI's OAuth, end to end against a real `oidc-provider` (tests/support/authServer.ts):
 * `mcpkit serve --http --auth-issuer` as the protected resource, `mcpkit login` with the login and
 * consent pages driven in code in place of the browser (through the CLI's `openBrowser` seam), the
 * token cache on disk, `logout`, and the exit code 3 where a login would be needed but may not run.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { jwtVerifier, protect, requireScopes } from '@mcpkit/auth/server';
import { serve } from '@mcpkit/node/http';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/server/http';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../packages/cli/src/index.js';
import { type AuthServerFixture, browser, M2M_CLIENT, startAuthServer } from './support/authServer.js';
import { type CliRunOptions, runCliInProcess, startCliInProcess } from './support/inProcessCli.js';
import { preRegisteredClient } from './support/preRegister.js';

let as: AuthServerFixture;
let config = '';
let demo: { url: string; stop: () => Promise<number> };

/** `mcpkit serve --http --auth-issuer ISSUER` in this process; resolves once it prints its URL. */
async function serveProtected(): Promise<typeof demo> {
  const running = await startCliInProcess(
    ['serve', '--http', '--port', '0', '--auth-issuer', as.issuer],
    /listening on (\S+)/,
  );
  return { url: running.match[1] as string, stop: () => running.stop() };
}

/** The person at the browser: logs in and consents in code, then lands on the CLI's loopback page. */
function person(seen: URL[], pages: string[] = []): NonNullable<CliRunOptions['openBrowser']> {
  return async (url) => {
    const start = new URL(url);
    const redirectUri = start.searchParams.get('redirect_uri') ?? '';
    const back = await browser(redirectUri, seen)(start);
    const landing = await fetch(back);
    pages.push(`${landing.status} ${await landing.text()}`);
    return true;
  };
}

function mcpkit(argv: string[], options: CliRunOptions = {}) {
  return runCliInProcess(argv, { ...options, env: { XDG_CONFIG_HOME: config, ...options.env } });
}

/** The cache files of servers. */
async function serverFiles(): Promise<string[]> {
  const dir = path.join(config, 'mcpkit', 'auth', 'servers');
  return (await readdir(dir).catch(() => [])).map((name) => path.join(dir, name));
}

beforeAll(async () => {
  as = await startAuthServer();
  config = await mkdtemp(path.join(tmpdir(), 'mcpkit-auth-'));
  demo = await serveProtected();
});

afterAll(async () => {
  await demo?.stop();
  await as?.close();
  if (config) await rm(config, { recursive: true, force: true });
});

describe('the protected demo: mcpkit serve --http --auth-issuer', () => {
  it('answers 401 with a WWW-Authenticate that points at its metadata, and serves that metadata', async () => {
    const origin = new URL(demo.url).origin;
    const refused = await fetch(demo.url, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const prm = await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`);
    expect(prm.status).toBe(200);
    expect(await prm.json()).toMatchObject({ resource: demo.url, authorization_servers: [as.issuer] });
    expect((await fetch(`${origin}/sse`)).status).toBe(404); // no unprotected side door
  });

  it('refuses a token issued for another audience', async () => {
    const issuer = new URL(as.issuer);
    const metadata = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: 'oidc', [oauth.allowInsecureRequests]: true }),
    );
    const client = { client_id: M2M_CLIENT.client_id };
    const response = await oauth.clientCredentialsGrantRequest(
      metadata,
      client,
      oauth.ClientSecretBasic(M2M_CLIENT.client_secret),
      new URLSearchParams({ resource: 'http://127.0.0.1:9/other/mcp', scope: 'mcp:read' }),
      { [oauth.allowInsecureRequests]: true },
    );
    const { access_token } = await oauth.processClientCredentialsResponse(metadata, client, response);
    const refused = await fetch(demo.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}` },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(refused.headers.get('www-authenticate')).toContain('aud');
  });
});

describe('mcpkit login, the token cache and logout', () => {
  it('login drives the browser step, caches the tokens 0600, and list then uses them without a login', async () => {
    const seen: URL[] = [];
    const pages: string[] = [];
    // The demo names no scope, and this authorization server grants nothing without one.
    const login = await mcpkit(['login', '--verbose', demo.url, '--scope', 'mcp:read'], {
      openBrowser: person(seen, pages),
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Logged in to ${demo.url}`);
    expect(seen).toHaveLength(1);
    const asked = (seen[0] as URL).searchParams;
    expect(asked.get('resource')).toBe(demo.url);
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(pages[0]).toMatch(/^200 .*You can close this page/s);

    const [file, ...others] = await serverFiles();
    expect(others).toEqual([]);
    expect((await stat(file as string)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file as string))).mode & 0o777).toBe(0o700);
    const cached = JSON.parse(await readFile(file as string, 'utf8'));
    expect(cached).toMatchObject({ resource: demo.url, tokens: { issuer: as.issuer } });
    const { accessToken, refreshToken } = cached.tokens as { accessToken: string; refreshToken?: string };
    expect(login.stderr + login.stdout).not.toContain(accessToken);

    const list = await mcpkit(['list', '--verbose', demo.url, 'tools'], {
      openBrowser: person(seen),
    });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('echo');
    expect(seen).toHaveLength(1); // no second login
    for (const secret of [accessToken, refreshToken].filter(Boolean)) {
      expect(list.stderr + list.stdout).not.toContain(secret);
    }
    const served = await fetch(demo.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(served.status).toBe(200);
    await served.body?.cancel();
  });

  it('mcpkit console connects with the cached tokens, with no second login', async () => {
    const seen: URL[] = [];
    let stdout = '';
    let interrupt: (() => void) | undefined;
    const io: CliIo = {
      stdout: {
        write: (chunk) => {
          stdout += String(chunk);
        },
      },
      stderr: { write: () => {} },
      stdin: new PassThrough(),
      env: { XDG_CONFIG_HOME: config, NO_COLOR: '1' },
      cwd: process.cwd(),
      onInterrupt: (listener) => {
        interrupt = listener;
        return () => {};
      },
      openBrowser: person(seen),
    };
    const done = runCli(['console', '--no-open', demo.url], io);
    await expect.poll(() => /\?token=/.test(stdout)).toBe(true);
    const page = new URL(stdout.trim());
    const api = async (operation: string) => {
      const response = await fetch(new URL(`/api/${operation}`, page), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-mcpkit-console-token': page.searchParams.get('token')!,
        },
        body: '{}',
      });
      return (await response.json()).result;
    };
    expect(await api('state')).toMatchObject({ connected: true, serverInfo: { name: 'mcpkit-demo' } });
    expect((await api('listTools')).map((tool: { name: string }) => tool.name)).toContain('echo');
    expect(seen).toEqual([]); // the cached tokens, no browser
    interrupt!();
    expect(await done).toBe(0);
  });

  it('off a terminal, tokens about to expire are refreshed (and rotated) without a login', async () => {
    as.accessTokenTtl = 1; // always within the refresh margin, so every command refreshes first
    try {
      const seen: URL[] = [];
      const login = await mcpkit(['login', demo.url, '--scope', 'mcp:read'], { openBrowser: person(seen) });
      expect(login.code, login.stderr).toBe(0);
      // A second login listens on the port of the first (for servers that match redirect URIs exactly).
      const loopback = JSON.parse(
        await readFile(path.join(config, 'mcpkit', 'auth', 'loopback.json'), 'utf8'),
      );
      expect(seen[0]?.searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${loopback.port}/callback`);
      const [file] = await serverFiles();
      const before = JSON.parse(await readFile(file as string, 'utf8')).tokens;
      expect(before.refreshToken).toBeDefined();
      const ping = await mcpkit(['ping', '--no-login', demo.url], { openBrowser: person(seen) });
      expect(ping.code, ping.stderr).toBe(0);
      const after = JSON.parse(await readFile(file as string, 'utf8')).tokens;
      expect(after.accessToken).not.toBe(before.accessToken);
      expect(after.refreshToken).not.toBe(before.refreshToken);
      expect(seen).toHaveLength(1); // the login only
    } finally {
      as.accessTokenTtl = 300;
    }
  });

  it('logout deletes the cache entry; then off a terminal, or with --no-login, a verb exits 3 and says to log in', async () => {
    const logout = await mcpkit(['logout', demo.url]);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stdout).toContain(`Logged out of ${demo.url}`);
    expect(await serverFiles()).toEqual([]);

    const seen: URL[] = [];
    const offTerminal = await mcpkit(['list', demo.url], { openBrowser: person(seen) });
    expect(offTerminal.code).toBe(3);
    expect(offTerminal.stderr).toContain('needs you to log in');
    expect(offTerminal.stderr).toContain('not a terminal');
    expect(offTerminal.stderr).toContain(`mcpkit login ${demo.url}`);

    for (const tty of [true, false]) {
      const refused = await mcpkit(['ping', '--no-login', demo.url], { tty, openBrowser: person(seen) });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('--no-login forbids opening a browser');
    }
    expect(seen).toEqual([]); // no browser was opened
  });

  it('regression: a person logging in for longer than 2 s is not told "Still waiting for the server"', async () => {
    await mcpkit(['logout', demo.url]);
    const seen: URL[] = [];
    const slowPerson: NonNullable<CliRunOptions['openBrowser']> = async (url) => {
      await new Promise((resolve) => setTimeout(resolve, 2_600)); // reading, typing a password
      return person(seen)(url);
    };
    const run = await mcpkit(['ping', demo.url, '--scope', 'mcp:read'], {
      tty: true,
      openBrowser: slowPerson,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(seen).toHaveLength(1);
    expect(run.stderr).toContain('Finish the login in your browser');
    expect(run.stderr).not.toContain('Still waiting');
  });

  it('on a terminal, a verb logs in by itself on the first 401; without a browser it prints the URL', async () => {
    await mcpkit(['logout', demo.url]);
    const seen: URL[] = [];
    // No browser opens: the person copies the printed URL instead.
    let driving: Promise<unknown> | undefined;
    const run = await mcpkit(['ping', demo.url, '--scope', 'mcp:read'], {
      tty: true,
      openBrowser: async () => false,
      onStderr: (text) => {
        const printed = /open this URL:\s+(\S+)/.exec(text)?.[1];
        if (printed) driving = person(seen)(printed);
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('No browser could be opened');
    expect(seen).toHaveLength(1);
    await driving;
    expect(await serverFiles()).toHaveLength(1);
  });

  it('a pre-registered client (--client-id, --client-secret) is used and remembered; its secret is never printed', async () => {
    const { client_id, client_secret } = await preRegisteredClient(as.issuer);
    const seen: URL[] = [];
    const login = await mcpkit(
      [
        'login',
        '--verbose',
        demo.url,
        '--scope',
        'mcp:read',
        // One word each: oidc-provider's random id or secret may begin with `-` (the CLI takes
        // `--client-id -x…` too since the fix; the parser test pins that).
        `--client-id=${client_id}`,
        `--client-secret=${client_secret}`,
      ],
      { openBrowser: person(seen) },
    );
    expect(login.code, login.stderr).toBe(0);
    expect(seen[0]?.searchParams.get('client_id')).toBe(client_id);
    expect(login.stdout + login.stderr).not.toContain(client_secret);
    const [file] = await serverFiles();
    expect(JSON.parse(await readFile(file as string, 'utf8')).client).toMatchObject({ clientId: client_id });
    const again = await mcpkit(['ping', demo.url]);
    expect(again.code, again.stderr).toBe(0);
  });

  it('a call to a tool that needs more scope steps up: a second login for the wider scope, then the call succeeds', async () => {
    // A protected server whose write_note needs mcp:write on top of the mcp:read every request needs.
    const scopes = requireScopes({ tools: { write_note: ['mcp:write'] } });
    const server = new McpServer({ name: 'notes', version: '1.0.0' });
    server.tool('write_note', () => 'written');
    server.use(scopes);
    const mcp = createStreamableHttpHandler(server);
    let guarded: (request: Request) => Promise<Response> = async () => new Response(null, { status: 503 });
    const served = await serve((request: Request) => guarded(request));
    try {
      const resource = `${served.url.replace(/\/$/, '')}/mcp`;
      guarded = protect(mcp, {
        resource,
        authorizationServers: [as.issuer],
        verifier: jwtVerifier({ issuer: as.issuer, audience: resource, jwks: `${as.issuer}/jwks` }),
        requiredScopes: ['mcp:read'],
        scopes,
      });
      const seen: URL[] = [];
      const run = await mcpkit(['call', resource, 'write_note', '--scope', 'mcp:read'], {
        tty: true,
        openBrowser: person(seen),
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('written');
      // The first login asked for mcp:read; the 403 insufficient_scope sent the person back once,
      // for both scopes.
      expect(seen).toHaveLength(2);
      expect(seen[1]?.searchParams.get('scope')?.split(' ')).toEqual(
        expect.arrayContaining(['mcp:read', 'mcp:write']),
      );
      expect(seen[0]?.searchParams.get('scope')?.split(' ')).not.toContain('mcp:write');
    } finally {
      await mcp.close();
      await served.close();
    }
  });

  it('login and logout refuse a stdio target as a usage error', async () => {
    const run = await mcpkit(['login', '--', 'node', 'server.js']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('"login" applies to HTTP servers');
  });
});

describe("a config entry's own OAuth client (oauth: clientId, clientSecret, scope)", () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'mcpkit-oauth-config-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    delete process.env.MCPKIT_TEST_CRM_SECRET;
  });

  /** Writes a config file of `servers` in the test's folder. */
  async function configFile(name: string, servers: Record<string, unknown>): Promise<string> {
    const file = path.join(dir, name);
    await writeFile(file, JSON.stringify({ mcpServers: servers }));
    return file;
  }

  /** An HTTP entry with its own client (`oauth` given as is), asking for mcp:read unless `oauth` says. */
  const withClient = (url: string, clientId: string, oauth: Record<string, unknown>) => ({
    url,
    oauth: { clientId, scope: 'mcp:read', ...oauth },
  });

  it('mcpkit call --config logs in with the entry client and scope, no flags; the secret comes from ${env:…} and is never printed', async () => {
    const { client_id, client_secret } = await preRegisteredClient(as.issuer);
    // The config loader reads this process's environment (the in-process CLI shares it).
    process.env.MCPKIT_TEST_CRM_SECRET = client_secret;
    const file = await configFile('one.json', {
      demo: withClient(demo.url, client_id, { clientSecret: '${env:MCPKIT_TEST_CRM_SECRET}' }),
    });
    const seen: URL[] = [];
    // A token cache of its own: the earlier tests' tokens for the demo must not answer for it.
    const cache = await mkdtemp(path.join(dir, 'cache-'));
    const run = await mcpkit(['call', '--config', file, 'echo', 'text=hi'], {
      tty: true,
      openBrowser: person(seen),
      env: { XDG_CONFIG_HOME: cache },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('hi');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.searchParams.get('client_id')).toBe(client_id);
    // The demo names no scope: mcp:read is the entry's (offline_access is the client's own, for refresh).
    expect(seen[0]?.searchParams.get('scope')?.split(' ')).toContain('mcp:read');
    expect(run.stdout + run.stderr).not.toContain(client_secret);
    // The secret went to the token endpoint (client_secret_basic): the login would fail without it.
  });

  it('several remote servers of one file: each logs in with its own entry client; the entry wins over --client-id', async () => {
    const other = await serveProtected();
    try {
      const a = await preRegisteredClient(as.issuer);
      const b = await preRegisteredClient(as.issuer);
      process.env.MCPKIT_TEST_CRM_SECRET = b.client_secret;
      const file = await configFile('two.json', {
        // Cursor's array of scopes, and Claude Code's object: read as OAuth's scope.
        a: withClient(demo.url, a.client_id, {
          clientSecret: a.client_secret,
          scope: undefined,
          scopes: ['mcp:read'],
        }),
        b: withClient(other.url, b.client_id, { clientSecret: '${env:MCPKIT_TEST_CRM_SECRET}' }),
      });
      const seen: URL[] = [];
      const cache = await mkdtemp(path.join(dir, 'cache-'));
      const run = await mcpkit(['list', 'tools', '--config', file, '--client-id', 'not-this-one'], {
        tty: true,
        openBrowser: person(seen),
        env: { XDG_CONFIG_HOME: cache },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('a__echo');
      expect(run.stdout).toContain('b__echo');
      const byResource = new Map(seen.map((url) => [url.searchParams.get('resource'), url.searchParams]));
      expect(byResource.get(demo.url)?.get('client_id')).toBe(a.client_id);
      expect(byResource.get(other.url)?.get('client_id')).toBe(b.client_id);
      expect(seen).toHaveLength(2);
      for (const url of seen) expect(url.searchParams.get('scope')?.split(' ')).toContain('mcp:read');
    } finally {
      await other.stop();
    }
  });

  it('mcpkit gateway --config with no cached token: that upstream fails, saying it needs a login the gateway cannot open', async () => {
    const file = await configFile('gateway-no-login.json', { a: { url: demo.url } });
    const cache = await mkdtemp(path.join(dir, 'cache-'));
    const gateway = await startCliInProcess(
      ['gateway', '--config', file, '--http', '--port', '0'],
      /^(http:\S+)$/m,
      { XDG_CONFIG_HOME: cache },
    );
    try {
      const run = await mcpkit(['call', gateway.match[1] as string, 'echo', 'text=x']);
      expect(run.code).not.toBe(0);
      await expect
        .poll(() => gateway.stderr(), { timeout: 15_000 })
        .toContain('needs you to log in, and the gateway opens no browser');
      // The hint names the login that caches tokens with this entry of this file.
      expect(gateway.stderr()).toContain(`mcpkit login --config ${file} --server a`);
    } finally {
      await gateway.stop();
    }
  });

  it('mcpkit gateway --config uses the tokens "mcpkit login --config FILE --server NAME" cached with the entry client', async () => {
    const { client_id, client_secret } = await preRegisteredClient(as.issuer);
    const file = await configFile('gateway.json', {
      a: withClient(demo.url, client_id, { clientSecret: client_secret }),
    });
    const cache = await mkdtemp(path.join(dir, 'cache-'));
    const seen: URL[] = [];
    const login = await mcpkit(['login', '--config', file, '--server', 'a'], {
      openBrowser: person(seen),
      env: { XDG_CONFIG_HOME: cache },
    });
    expect(login.code, login.stderr).toBe(0);
    expect(seen[0]?.searchParams.get('client_id')).toBe(client_id);
    const gateway = await startCliInProcess(
      ['gateway', '--config', file, '--http', '--port', '0'],
      /^(http:\S+)$/m,
      { XDG_CONFIG_HOME: cache },
    );
    try {
      // The gateway opens no browser: the upstream answers only with the cached (entry client's) tokens.
      const run = await mcpkit(['call', gateway.match[1] as string, 'echo', 'text=through the gateway']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('through the gateway');
    } finally {
      await gateway.stop();
    }
  });
});
