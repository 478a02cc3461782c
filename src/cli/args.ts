import { pushAll } from '../support/arrays.js';
import { ZhiError } from '../support/errors.js';
import { nearest } from '../support/suggest.js';
import { FOLDER_LISTS, FOLDER_SWITCHES } from './folder-flags.js';

/** The values of `--output-format`; each has its entry in OUTPUT_FORMATS (cli/render/formats). */
export const OUTPUT_FORMAT_NAMES = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMAT_NAMES)[number];

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
  'serve',
  'web',
  'schedule',
  'watch',
  'completion',
  // Hidden: what the completion scripts ask while a person presses Tab (skill names).
  '__complete',
] as const;
/** Flags a subcommand takes more than once (folder runs' lists, `zhi mcp add --env/--header`). */
const REPEATED = new Set([...FOLDER_LISTS, 'env', 'header']);
const SUBS_WITH_EXTRA = new Set(['run', 'usage', 'sessions', 'mcp', 'schedule', 'watch', 'skill']);

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

/** Every global flag (the completion scripts offer them). */
export const GLOBAL_FLAGS = [
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
  const suggestion = key === 'cli.err.unknownFlag' ? nearest(flag, GLOBAL_FLAGS) : undefined;
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

/** `zhi web` and `zhi serve` take their own options (`--port`, `--no-open`, `--host`). */
const WEB_SUBS = new Set(['serve', 'web']);

/**
 * Parse the command line of design §2. Global flags may appear anywhere; `--` ends flags.
 * Unknown `--name value` pairs are kept for subcommands that take them (`zhi run translate a.md --to en`).
 */
export function parseArgs(argv: string[]): ParsedArgs {
  return new ArgParser(argv).parse();
}

/** One argument being read: `--name=value` is split into its name and inline value. */
interface Arg {
  arg: string;
  name: string;
  inline: string | undefined;
}

/** Reads argv left to right; each `read…` method takes the argument at `i` (and its value). */
class ArgParser {
  private readonly flags: GlobalFlags = {
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
  private readonly positionals: string[] = [];
  private readonly extra: Record<string, string | true> = {};
  private readonly unknown: string[] = [];
  private subcommand: string | undefined;
  private i = 0;

  constructor(private readonly argv: string[]) {}

  parse(): ParsedArgs {
    const { argv } = this;
    for (; this.i < argv.length; this.i++) {
      const arg = argv[this.i]!;
      if (arg === '--') {
        pushAll(this.positionals, argv.slice(this.i + 1));
        break;
      }
      const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
      const a: Arg = {
        arg,
        name: eq > 0 ? arg.slice(0, eq) : arg,
        inline: eq > 0 ? arg.slice(eq + 1) : undefined,
      };
      if (!this.readFlag(a)) this.readWord(arg);
    }
    const { subcommand, unknown } = this;
    const takesExtra = subcommand && (SUBS_WITH_EXTRA.has(subcommand) || WEB_SUBS.has(subcommand));
    if (unknown.length && !takesExtra) {
      throw usageError('cli.err.unknownFlag', unknown[0]!);
    }
    return {
      flags: this.flags,
      ...(subcommand ? { subcommand } : {}),
      positionals: this.positionals,
      extra: this.extra,
    };
  }

  /** A global flag, or an unknown one kept for the subcommand; false for a plain word. */
  private readFlag(a: Arg): boolean {
    const { name } = a;
    const flags = this.flags as unknown as Record<string, unknown>;
    // Own keys only: a word such as `toString` or `constructor` is no flag.
    if (Object.hasOwn(VALUE_FLAGS, name)) this.readValueFlag(a, VALUE_FLAGS[name]!);
    else if (Object.hasOwn(BOOL_FLAGS, name)) flags[BOOL_FLAGS[name]!] = true;
    else if (name === '-v' || name === '--verbose') this.flags.verbose += 1;
    else if (name === '-vv') this.flags.verbose += 2;
    else if (name === '--resume') this.readResume(a);
    else if (a.arg.startsWith('-') && a.arg !== '-') this.readUnknownFlag(a);
    else return false;
    return true;
  }

  private readValueFlag(a: Arg, key: keyof GlobalFlags): void {
    const value = this.takeValue(a);
    if (key !== 'outputFormat') {
      (this.flags as unknown as Record<string, unknown>)[key] = value;
      return;
    }
    if (!(OUTPUT_FORMAT_NAMES as readonly string[]).includes(value))
      throw usageError('cli.err.badValue', a.name, value);
    this.flags.outputFormat = value as OutputFormat;
  }

  /** The flag's value: inline, or the next word (a command for `-c` may start with a dash). */
  private takeValue({ name, inline }: Arg): string {
    if (inline !== undefined) return inline;
    const next = this.argv[this.i + 1];
    if (
      next === undefined ||
      (next.startsWith('-') && next !== '-' && name !== '-c' && name !== '--command')
    ) {
      throw usageError('cli.err.missingValue', name);
    }
    this.i += 1;
    return next;
  }

  /** `--resume` takes an id only when the next word is not a flag or a subcommand. */
  private readResume({ inline }: Arg): void {
    const next = this.argv[this.i + 1];
    if (inline !== undefined) this.flags.resume = inline;
    else if (
      next !== undefined &&
      !next.startsWith('-') &&
      this.subcommand === undefined &&
      !isSubcommand(next)
    ) {
      this.flags.resume = next;
      this.i += 1;
    } else this.flags.resume = true;
  }

  /** Unknown here: a subcommand may take it (`--to english`, `--since 7d`). */
  private readUnknownFlag({ name, inline }: Arg): void {
    const { extra } = this;
    const key = name.replace(/^-+/, '');
    const next = this.argv[this.i + 1];
    if (FOLDER_SWITCHES.has(key) && inline === undefined) extra[key] = true;
    else if (REPEATED.has(key) && typeof extra[key] === 'string' && (inline ?? next) !== undefined) {
      // `--include a --include b`, `--env A=1 --env B=2`: all are kept, one a line.
      extra[key] = `${extra[key]}\n${inline ?? next}`;
      if (inline === undefined) this.i += 1;
    } else if (inline !== undefined) extra[key] = inline;
    else if (next !== undefined && !next.startsWith('--')) {
      extra[key] = next;
      this.i += 1;
    } else extra[key] = true;
    this.unknown.push(name);
  }

  private readWord(arg: string): void {
    if (this.subcommand === undefined && this.positionals.length === 0 && isSubcommand(arg)) {
      this.subcommand = arg;
      return;
    }
    this.positionals.push(arg);
  }
}

function isSubcommand(word: string): boolean {
  return (SUBCOMMANDS as readonly string[]).includes(word);
}
