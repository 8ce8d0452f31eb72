import type { ChildProcess } from 'node:child_process';

export function freePort(): Promise<number>;
export function waitForLine(child: ChildProcess, mark: string, what: string): Promise<string>;
export function exited(child: ChildProcess): Promise<void>;

export class RedisProcess {
  readonly port: number;
  static start(options?: { durable?: boolean }): Promise<RedisProcess>;
  get url(): string;
  start(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
}

export class Balancer {
  readonly port: number;
  static start(ports: readonly number[], options?: { keepalive?: boolean }): Promise<Balancer>;
  get url(): string;
  stop(): Promise<void>;
}
