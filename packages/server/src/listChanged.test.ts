import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListChangeAnnouncer, mergeConfig } from './listChanged.js';

/** A server as the announcer sees it (the `AnnouncingServer` port): one session, broadcasts recorded. */
function announcingServer() {
  const broadcasts: string[] = [];
  const server = {
    relay: undefined,
    sessions: { size: 1 },
    broadcast: (method: string) => {
      broadcasts.push(method);
    },
  };
  return { server, broadcasts };
}

describe('ListChangeAnnouncer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('coalesces changes within the window into one announcement of each kind', () => {
    vi.useFakeTimers();
    const { server, broadcasts } = announcingServer();
    const announcer = new ListChangeAnnouncer(server, 10);
    announcer.changed('tools');
    announcer.changed('tools');
    announcer.changed('prompts');
    vi.advanceTimersByTime(9);
    expect(broadcasts).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(broadcasts).toEqual(['notifications/tools/list_changed', 'notifications/prompts/list_changed']);
    announcer.changed('resources');
    vi.advanceTimersByTime(10);
    expect(broadcasts.slice(2)).toEqual(['notifications/resources/list_changed']);
  });

  it('drops pending changes when cancelled, and records none while nobody could hear', () => {
    vi.useFakeTimers();
    const { server, broadcasts } = announcingServer();
    const announcer = new ListChangeAnnouncer(server, 50);
    announcer.changed('prompts');
    announcer.cancel();
    vi.advanceTimersByTime(100);
    server.sessions.size = 0;
    announcer.changed('tools');
    vi.advanceTimersByTime(100);
    expect(broadcasts).toEqual([]);
  });

  it('refuses a negative window', () => {
    expect(() => new ListChangeAnnouncer(announcingServer().server, -1)).toThrow(RangeError);
  });
});

describe('mergeConfig', () => {
  it('removes members set to undefined, keeps the others, and skips the listed ones', () => {
    expect(
      mergeConfig({ title: 'A', description: 'B', size: 1 }, { description: undefined, size: 2, name: 'x' }, [
        'name',
      ]),
    ).toEqual({ title: 'A', size: 2 });
  });
});
