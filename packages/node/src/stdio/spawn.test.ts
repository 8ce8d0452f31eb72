// Windows command resolution cannot be exercised end to end on Linux CI, so the planning logic is
// tested directly with an injected file system.
import { describe, expect, it } from 'vitest';
import { planSpawn, type SpawnHost } from './spawn.js';

const DEFAULT_WINDOWS_ENV = {
  PATH: 'C:\\Program Files\\nodejs;C:\\Windows\\System32',
  COMSPEC: 'C:\\Windows\\System32\\cmd.exe',
};

// Windows file names are case-insensitive, hence the lower-cased lookup.
function windows(files: string[], env: Record<string, string> = DEFAULT_WINDOWS_ENV): SpawnHost {
  const present = new Set(files.map((file) => file.toLowerCase()));
  return {
    platform: 'win32',
    cwd: 'C:\\work',
    env,
    exists: (file) => present.has(file.toLowerCase()),
  };
}

describe('planSpawn', () => {
  it('runs the command as given off Windows', () => {
    const host: SpawnHost = { platform: 'linux', cwd: '/', env: {}, exists: () => true };
    expect(planSpawn('npx', ['-y', 'pkg'], host)).toEqual({
      file: 'npx',
      args: ['-y', 'pkg'],
      windowsVerbatimArguments: false,
    });
  });

  it('wraps a .cmd shim found on PATH in cmd.exe with every argument quoted', () => {
    const plan = planSpawn(
      'npx',
      ['-y', '@modelcontextprotocol/server-everything', 'a b&c'],
      windows(['C:\\Program Files\\nodejs\\npx.cmd']),
    );
    expect(plan).toEqual({
      file: 'C:\\Windows\\System32\\cmd.exe',
      args: [
        '/d',
        '/s',
        '/v:off',
        '/c',
        '""C:\\Program Files\\nodejs\\npx.CMD" "-y" "@modelcontextprotocol/server-everything" "a b&c""',
      ],
      windowsVerbatimArguments: true,
    });
  });

  it('leaves .exe files to be spawned directly, honouring PATHEXT order', () => {
    const host = windows(['C:\\Program Files\\nodejs\\node.exe', 'C:\\Program Files\\nodejs\\node.cmd']);
    expect(planSpawn('node', ['server.js'], host).file).toBe('node');
    expect(planSpawn('node', ['server.js'], host).windowsVerbatimArguments).toBe(false);
  });

  it('finds PATH, PATHEXT and COMSPEC whatever their case, and explicit .bat paths', () => {
    const host = windows(['D:\\bin\\server.bat'], {
      Path: 'D:\\bin',
      PathExt: '.BAT',
      ComSpec: 'C:\\Windows\\System32\\cmd.exe',
    });
    expect(planSpawn('server', [], host).args.at(-1)).toBe('""D:\\bin\\server.BAT""');
    expect(planSpawn('D:\\bin\\server.bat', [], host).file).toBe('C:\\Windows\\System32\\cmd.exe');
  });

  it('doubles trailing backslashes so they do not escape the closing quote', () => {
    const plan = planSpawn('tool', ['C:\\data\\'], windows(['C:\\work\\tool.cmd']));
    expect(plan.args.at(-1)).toBe('""C:\\work\\tool.CMD" "C:\\data\\\\""');
  });

  it('refuses arguments cmd.exe would interpret even inside quotes', () => {
    const host = windows(['C:\\work\\tool.cmd']);
    expect(() => planSpawn('tool', ['%PATH%'], host)).toThrow(/cannot pass the argument/i);
    expect(() => planSpawn('tool', ['say "hi"'], host)).toThrow(/cannot pass the argument/i);
    expect(() => planSpawn('tool', ['two\nlines'], host)).toThrow(/cannot pass the argument/i);
  });

  it('leaves an unknown command alone so spawn reports ENOENT', () => {
    expect(planSpawn('missing', [], windows([]))).toEqual({
      file: 'missing',
      args: [],
      windowsVerbatimArguments: false,
    });
  });
});
