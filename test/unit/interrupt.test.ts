import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { DOUBLE_PRESS_MS, Interrupt } from '../../src/cli/interrupt.js';

function setup() {
  const exits: number[] = [];
  let now = 1_000;
  const interrupt = new Interrupt({ exit: (code) => exits.push(code), now: () => now });
  return { interrupt, exits, advance: (ms: number) => (now += ms) };
}

/** A run that ends only when told to, like an answer still stopping. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { done, release };
}

describe('Interrupt: the one Ctrl+C of the process', () => {
  it('the first press aborts what runs and the run ends cleanly; nothing exits', async () => {
    const { interrupt, exits } = setup();
    let seen: AbortSignal | undefined;
    const run = interrupt.run(async (signal) => {
      seen = signal;
      await new Promise((r) => signal.addEventListener('abort', r));
      return 'stopped';
    });
    expect(interrupt.busy).toBe(true);
    expect(interrupt.press()).toBe(true);
    expect(await run).toBe('stopped');
    expect(seen?.aborted).toBe(true);
    expect(exits).toEqual([]);
    expect(interrupt.busy).toBe(false);
  });

  it('stop (Esc) aborts what runs but never exits, however often; nothing running: false', async () => {
    const { interrupt, exits } = setup();
    expect(interrupt.stop()).toBe(false);
    const h = held();
    let seen: AbortSignal | undefined;
    const run = interrupt.run((signal) => {
      seen = signal;
      return h.done;
    });
    expect(interrupt.stop()).toBe(true);
    expect(interrupt.stop()).toBe(true);
    expect(seen?.aborted).toBe(true);
    expect(exits).toEqual([]);
    h.release();
    await run;
  });

  it('a second press while the first is still stopping exits with 130', async () => {
    const { interrupt, exits, advance } = setup();
    const h = held();
    const run = interrupt.run(() => h.done);
    interrupt.press();
    advance(DOUBLE_PRESS_MS - 100);
    interrupt.press();
    expect(exits).toEqual([130]);
    h.release();
    await run;
  });

  it('a second press after the window only stops again (no exit)', async () => {
    const { interrupt, exits, advance } = setup();
    const h = held();
    const run = interrupt.run(() => h.done);
    interrupt.press();
    advance(DOUBLE_PRESS_MS + 100);
    interrupt.press();
    expect(exits).toEqual([]);
    h.release();
    await run;
  });

  it('two presses in two separate runs do not add up to an exit', async () => {
    const { interrupt, exits } = setup();
    await interrupt.run(async (signal) => {
      interrupt.press();
      expect(signal.aborted).toBe(true);
    });
    const h = held();
    const second = interrupt.run(() => h.done);
    interrupt.press();
    expect(exits).toEqual([]);
    h.release();
    await second;
  });

  it('a press with nothing running is the caller’s: press() says so; SIGINT then exits 130', () => {
    const { interrupt, exits } = setup();
    expect(interrupt.press()).toBe(false);
    expect(exits).toEqual([]);
    const proc = new EventEmitter();
    const stop = interrupt.listen(proc);
    proc.emit('SIGINT');
    expect(exits).toEqual([130]);
    stop();
    expect(proc.listenerCount('SIGINT')).toBe(0);
  });

  it('SIGINT during a run stops it rather than exiting', async () => {
    const { interrupt, exits } = setup();
    const proc = new EventEmitter();
    interrupt.listen(proc);
    await interrupt.run(async (signal) => {
      proc.emit('SIGINT');
      expect(signal.aborted).toBe(true);
    });
    expect(exits).toEqual([]);
  });
});
