/**
 * Runs one bench row module in a process of its own (bundled by scripts/bench.mjs) and prints its
 * rows as one JSON line: a row that crashes fails alone, and its memory does not weigh on others.
 *
 *   node host.mjs <row module> [--quick]
 */
import type { Measure } from './row.js';

const [modPath, ...flags] = process.argv.slice(2);
const mod = (await import(modPath!)) as { measure?: Measure };
if (typeof mod.measure !== 'function') throw new Error(`${modPath}: a bench row exports measure()`);
const rows = await mod.measure({ quick: flags.includes('--quick') });
process.stdout.write(`\n${JSON.stringify(rows)}\n`);
// Pty children, servers and timers a row leaves behind must not keep the host alive.
process.exit(0);
