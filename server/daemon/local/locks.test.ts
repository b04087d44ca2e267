import { describe, expect, it } from 'vitest';
import { DaemonError } from '../types';
import { ServerLocks } from './locks';

/** A step that records its start and end, finishing only when released. */
function step(order: string[], name: string) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    run: async () => {
      order.push(`${name}:start`);
      await gate;
      order.push(`${name}:end`);
    },
    release: () => release(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

async function kindOf(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'ok',
    (e: unknown) => (e instanceof DaemonError ? e.kind : String(e)),
  );
}

describe('ServerLocks', () => {
  it('runs the writes of one server one at a time, first come first served, and other servers alongside', async () => {
    const locks = new ServerLocks();
    const order: string[] = [];
    const [a, b, c, other] = [step(order, 'a'), step(order, 'b'), step(order, 'c'), step(order, 'other')];
    const done = [locks.write('s', a.run), locks.write('s', b.run), locks.write('s', c.run), locks.write('t', other.run)];
    await tick();
    expect(order).toEqual(['a:start', 'other:start']);
    c.release();
    b.release();
    other.release();
    a.release();
    await Promise.all(done);
    expect(order).toEqual(['a:start', 'other:start', 'other:end', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
    expect(locks.busy('s')).toBe(false);
  });

  it('keeps the queue going after a write fails', async () => {
    const locks = new ServerLocks();
    const failed = locks.write('s', () => Promise.reject(new Error('disk on fire')));
    const next = locks.write('s', async () => 'next');
    expect(await kindOf(failed)).toBe('Error: disk on fire');
    expect(await next).toBe('next');
  });

  it('starts an exclusive holder after the running writes and refuses new writes and power actions until it ends', async () => {
    const locks = new ServerLocks();
    const order: string[] = [];
    const write = step(order, 'write');
    const restore = step(order, 'restore');
    const running = locks.write('s', write.run);
    await tick();
    const exclusive = locks.exclusive('s', 'The server is currently being restored.', restore.run);
    await tick();
    expect(order).toEqual(['write:start']);
    const refused = await locks.write('s', async () => undefined).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DaemonError);
    expect(refused).toMatchObject({ kind: 'conflict', message: 'The server is currently being restored.' });
    expect(await kindOf(locks.power('s', async () => undefined))).toBe('conflict');
    expect(await kindOf(locks.exclusive('s', 'again', async () => undefined))).toBe('conflict');
    write.release();
    await running;
    await tick();
    expect(order).toEqual(['write:start', 'write:end', 'restore:start']);
    expect(await kindOf(locks.write('s', async () => undefined))).toBe('conflict');
    restore.release();
    await exclusive;
    // Released before the holder's caller resumes: what it does next is not refused.
    expect(await kindOf(locks.write('s', async () => undefined))).toBe('ok');
    expect(await kindOf(locks.power('s', async () => undefined))).toBe('ok');
    expect(locks.busy('s')).toBe(false);
  });

  it('lets a later holder wait for the exclusive one running (a transfer arriving while its old copy is deleted) instead of being refused', async () => {
    const locks = new ServerLocks();
    const order: string[] = [];
    const deleting = step(order, 'delete');
    const deleted = locks.exclusive('s1', 'The server is being deleted.', deleting.run);
    await tick();
    expect(await kindOf(locks.exclusive('s1', 'Receiving.', async () => undefined))).toBe('conflict');
    const receiving = locks.quiet('s1').then(() => locks.exclusive('s1', 'Receiving.', async () => void order.push('receive')));
    await tick();
    expect(order).toEqual(['delete:start']);
    deleting.release();
    await Promise.all([deleted, receiving]);
    expect(order).toEqual(['delete:start', 'delete:end', 'receive']);
    await expect(locks.quiet('s2')).resolves.toBeUndefined();
  });

  it('admits a body to be received unless an exclusive holder waits or runs', async () => {
    const locks = new ServerLocks();
    const order: string[] = [];
    const restore = step(order, 'restore');
    expect(() => locks.admit('s')).not.toThrow();
    const exclusive = locks.exclusive('s', 'The server is currently being restored.', restore.run);
    expect(() => locks.admit('s')).toThrow(expect.objectContaining({ kind: 'conflict', message: 'The server is currently being restored.' }));
    expect(() => locks.admit('t')).not.toThrow();
    restore.release();
    await exclusive;
    expect(() => locks.admit('s')).not.toThrow();
  });

  it('releases an exclusive hold that failed', async () => {
    const locks = new ServerLocks();
    expect(await kindOf(locks.exclusive('s', 'busy', () => Promise.reject(new Error('failed'))))).toBe('Error: failed');
    expect(await kindOf(locks.write('s', async () => undefined))).toBe('ok');
  });

  it('refuses a second power action while one runs, lets writes pass, and makes an exclusive holder wait for it', async () => {
    const locks = new ServerLocks();
    const order: string[] = [];
    const start = step(order, 'start');
    const powering = locks.power('s', start.run);
    expect(await kindOf(locks.power('s', async () => undefined))).toBe('conflict');
    expect(await kindOf(locks.write('s', async () => undefined))).toBe('ok');
    const reinstall = locks.exclusive('s', 'The server is currently being reinstalled.', async () => {
      order.push('reinstall');
    });
    await tick();
    expect(order).toEqual(['start:start']);
    start.release();
    await Promise.all([powering, reinstall]);
    expect(order).toEqual(['start:start', 'start:end', 'reinstall']);
    expect(locks.busy('s')).toBe(false);
  });
});
