import { ZhiError } from '../support/errors.js';
import { nearest } from '../support/suggest.js';
import { FOLDER_LISTS, FOLDER_SWITCHES } from './folder-flags.js';
import { pushAll } from '../support/arrays.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface GlobalFlags {
  model?: string;
  auto: boolean;
  outputDir?: string;
  outputFormat: OutputFormat;
  language?: string;
  noColor: boolean;
  debug: boolean;
  verbose: number;
  version: boolean;
  help: boolean;
  command?: string;
  setup: boolean;
  resume?: string | true;
  continue: boolean;
  yes: boolean;
}

export interface ParsedArgs {
  flags: GlobalFlags;
  /** The subcommand (`run`, `skill`, `config`, `sessions`, `usage`) and its positional words. */
  subcommand?: string;
  positionals: string[];
  /** `--name value` pairs that are not global flags; only subcommands that take them accept them. */
  extra: Record<string, string | true>;
}

export const SUBCOMMANDS = [
  'run',
  'skill',
  'config',
  'sessions',
  'usage',
  'doctor',
  'models',
  'mcp',
  'batch',
] as const;
const SUBS_WITH_EXTRA = new Set(['run', 'usage', 'sessions', 'mcp']);

const VALUE_FLAGS: Record<string, keyof GlobalFlags> = {
  '--model': 'model',
  '-m': 'model',
  '--output-dir': 'outputDir',
  '--output-format': 'outputFormat',
  '--language': 'language',
  '--command': 'command',
  '-c': 'command',
};

const BOOL_FLAGS: Record<string, keyof GlobalFlags> = {
  '--auto': 'auto',
  '--no-color': 'noColor',
  '--debug': 'debug',
  '--version': 'version',
  '-V': 'version',
  '--help': 'help',
  '-h': 'help',
  '--setup': 'setup',
  '--continue': 'continue',
  '--yes': 'yes',
  '-y': 'yes',
};

const ALL_FLAGS = [
  ...Object.keys(VALUE_FLAGS),
  ...Object.keys(BOOL_FLAGS),
  '--resume',
  '--verbose',
  '-v',
  '-vv',
];

function usageError(
  key: 'cli.err.unknownFlag' | 'cli.err.missingValue' | 'cli.err.badValue',
  flag: string,
  value?: string,
) {
  const suggestion = key === 'cli.err.unknownFlag' ? nearest(flag, ALL_FLAGS) : undefined;
  return new ZhiError({
    kind: 'usage',
    what: { key, params: { flag, value: value ?? '' } },
    ...(key === 'cli.err.badValue'
      ? { why: { key: 'cli.err.badValueWhy' as const, params: { allowed: 'text, json, stream-json' } } }
      : {}),
    tries: suggestion
      ? [{ key: 'cli.try.didYouMean', params: { suggestion } }, { key: 'cli.try.help' }]
      : [{ key: 'cli.try.help' }],
  });
}

/**
 * Parse the command line of design §2. Global flags may appear anywhere; `--` ends flags.
 * Unknown `--name value` pairs are kept for subcommands that take them (`zhi run translate a.md --to en`).
 */
export function parseArgs(argv: string[]): ParsedArgs {
  const flags: GlobalFlags = {
    auto: false,
    outputFormat: 'text',
    noColor: false,
    debug: false,
    verbose: 0,
    version: false,
    help: false,
    setup: false,
    continue: false,
    yes: false,
  };
  const positionals: string[] = [];
  const extra: Record<string, string | true> = {};
  let subcommand: string | undefined;
  const unknown: string[] = [];

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      pushAll(positionals, argv.slice(i + 1));
      break;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    const takeValue = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (
        next === undefined ||
        (next.startsWith('-') && next !== '-' && name !== '-c' && name !== '--command')
      ) {
        throw usageError('cli.err.missingValue', name);
      }
      i += 1;
      return next;
    };
    if (name in VALUE_FLAGS) {
      const key = VALUE_FLAGS[name]!;
      const value = takeValue();
      if (key === 'outputFormat') {
        if (!['text', 'json', 'stream-json'].includes(value))
          throw usageError('cli.err.badValue', name, value);
        flags.outputFormat = value as OutputFormat;
      } else {
        (flags as unknown as Record<string, unknown>)[key] = value;
      }
      continue;
    }
    if (name in BOOL_FLAGS) {
      (flags as unknown as Record<string, unknown>)[BOOL_FLAGS[name]!] = true;
      continue;
    }
    if (name === '-v' || name === '--verbose') {
      flags.verbose += 1;
      continue;
    }
    if (name === '-vv') {
      flags.verbose += 2;
      continue;
    }
    if (name === '--resume') {
      const next = argv[i + 1];
      if (inline !== undefined) flags.resume = inline;
      else if (
        next !== undefined &&
        !next.startsWith('-') &&
        subcommand === undefined &&
        !isSubcommand(next)
      ) {
        flags.resume = next;
        i += 1;
      } else flags.resume = true;
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') {
      // Unknown here: a subcommand may take it (`--to english`, `--since 7d`).
      const key = name.replace(/^-+/, '');
      const next = argv[i + 1];
      if (FOLDER_SWITCHES.has(key) && inline === undefined) extra[key] = true;
      else if (FOLDER_LISTS.has(key) && typeof extra[key] === 'string' && (inline ?? next) !== undefined) {
        // `--include a --include b`: both are kept.
        extra[key] = `${extra[key]}\n${inline ?? next}`;
        if (inline === undefined) i += 1;
      } else if (inline !== undefined) extra[key] = inline;
      else if (next !== undefined && !next.startsWith('--')) {
        extra[key] = next;
        i += 1;
      } else extra[key] = true;
      unknown.push(name);
      continue;
    }
    if (subcommand === undefined && positionals.length === 0 && isSubcommand(arg)) {
      subcommand = arg;
      continue;
    }
    positionals.push(arg);
  }

  if (unknown.length && !(subcommand && SUBS_WITH_EXTRA.has(subcommand))) {
    throw usageError('cli.err.unknownFlag', unknown[0]!);
  }
  return { flags, ...(subcommand ? { subcommand } : {}), positionals, extra };
}

function isSubcommand(word: string): boolean {
  return (SUBCOMMANDS as readonly string[]).includes(word);
}
