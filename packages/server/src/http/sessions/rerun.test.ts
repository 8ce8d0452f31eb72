import { classifyBody } from '@mcpkit/core/internal';
import { describe, expect, it } from 'vitest';
import { claimableRequest, RerunFilter } from './rerun.js';

const progress = (value: number, token: string | number = 't') =>
  JSON.stringify({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: token, progress: value },
  });
const log = (text: string) =>
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: text } });

describe('RerunFilter', () => {
  it('drops what the first run stored, as many times as it was stored, and nothing else', () => {
    const filter = new RerunFilter(1, [progress(1), log('tick'), progress(2), log('tick')]);
    expect(filter.answered).toBe(false);
    const second = [progress(1), log('tick'), progress(2), log('tick'), log('tick'), progress(3)];
    expect(second.filter((data) => !filter.repeats(data))).toEqual([log('tick'), progress(3)]);
  });

  it('drops progress not above the last stored for its token, whatever its message says', () => {
    const stored = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 't', progress: 2, message: 'at 12:00' },
    });
    const filter = new RerunFilter('call', [stored]);
    expect(filter.repeats(progress(1))).toBe(true);
    expect(filter.repeats(progress(2))).toBe(true);
    expect(filter.repeats(progress(1, 'other'))).toBe(false);
    expect(filter.repeats(progress(3))).toBe(false);
    expect(filter.repeats(progress(3))).toBe(true);
  });

  it('knows when the first run answered already', () => {
    const answer = JSON.stringify({ jsonrpc: '2.0', id: 'call', result: { content: [] } });
    expect(new RerunFilter('call', [progress(1), answer]).answered).toBe(true);
    expect(new RerunFilter('other', [answer]).answered).toBe(false);
    expect(new RerunFilter(1, ['not json', '[1]']).answered).toBe(false);
  });
});

describe('claimableRequest', () => {
  it('takes single requests other than initialize', () => {
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x' } };
    expect(claimableRequest(classifyBody(call))).toEqual(call);
    expect(claimableRequest(classifyBody([call]))).toBeUndefined();
    expect(claimableRequest(classifyBody({ ...call, method: 'initialize' }))).toBeUndefined();
    expect(
      claimableRequest(classifyBody({ jsonrpc: '2.0', method: 'notifications/initialized' })),
    ).toBeUndefined();
  });
});
